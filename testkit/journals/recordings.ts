// The recorded journals of testkit/journals/, as data: which server, which fault, keys and probes. Each
// is recorded live (scripts/record-journals.ts) with the verdict the live run gave beside it, and
// re-judged offline by recordings.test.ts in a second or two instead of the live run's minute.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Report } from '../../report/model.ts';
import { listen, type ReferenceFaults, type ReferenceVariants } from '../../reference/index.ts';
import { parsePlansFile, type DeclaredModel } from '../../spec/plans.ts';
import { ALL_PROOFS } from '../limiters/all-proofs.ts';
import { PROOF_KEYS, PROOF_PLANS, type Proof } from '../limiters/proofs.ts';
import { startService } from '../limiters/start.ts';

export const JOURNALS_DIR = fileURLToPath(new URL('.', import.meta.url));

export interface Recording {
  /** File names: `<name>.jsonl.gz` and `<name>.verdict.json`. */
  name: string;
  /** A limiter proof of testkit/limiters/all-proofs.ts (its service, fault, keys, probes, declared model). */
  proof?: string;
  /** Or the reference server, as it is or with faults or variants, on PROOF_PLANS. */
  reference?: {
    faults?: ReferenceFaults;
    variants?: ReferenceVariants;
    only?: string[];
    freeOnly?: boolean;
    /** --limiter-model: what its vendor declares (a bucket's rates). */
    declared?: DeclaredModel;
  };
  /**
   * A faulty reference server's recording: the rules (without their [plan]) any of which its re-judged verdict must
   * fail. A proof's recording fails the rule its proof expects (`caughtBy`).
   */
  catches?: string[];
  /**
   * A live run petcert misjudged, kept as a regression: what re-judging it gives since the fix, where that differs
   * from the recorded verdict (every other check as recorded). Never re-recorded by default: a live run of the
   * same server rarely meets the same evidence again (scripts/record-journals.ts records it only when named).
   */
  fixed?: FixedVerdict;
  /**
   * A live run caught misjudged whose verdict file holds the corrected verdict and `live` what that run said
   * (where the live run's own checks were not kept whole); re-recorded only by name, as `fixed`.
   */
  kept?: true;
  /**
   * Recorded before the probes paced as they now do (the day probe's first wave after a 429 hold, a burst sent
   * into a day already spent): re-judged, the replay stops where this petcert asks one of these keys' requests at
   * another moment than the live run sent it (replay.ts). That key's checks from there on end unjudged, and those
   * counted over all its answers (headers, Retry-After's form) see fewer of them; the run is INCOMPLETE. Every
   * other key's checks, and the checks the regression is kept for (`fixed`, a kept run's live failures), re-judge
   * as recorded (recordings.test.ts).
   */
  repaced?: { keys: string[] };
}

export interface FixedVerdict {
  /** What petcert misread, and where the fix is. */
  why: string;
  exit: number;
  verdict: string;
  /** By check id: its outcome and failure messages now (and, left unjudged, its reason and fix). */
  checks: Record<string, { outcome: string; messages: string[]; reason?: string; fix?: string }>;
}

/** fastify-stock's day checks of one key, unjudged for its day 429's Reset (`reset` seconds to go). */
function resetAsSecondsToGo(key: string, reset: number): FixedVerdict['checks'] {
  const skip = {
    outcome: 'skip',
    messages: [],
    reason:
      `the day quota's 429 reports X-RateLimit-Reset ${reset}, no instant within the day window (quota.headers.reset); its ` +
      `Retry-After (${reset}) says when to come back, not where the day began: no day window is pinned down to count in`,
    fix: "an X-RateLimit-Reset that is the Unix time (s) of the day window's end (§8.2)",
  };
  const ids = ['day.exact', 'day.retry-after', 'day.headers', 'rejected.consume'];
  return Object.fromEntries(ids.map((id) => [`quota.${id}[${key}]`, skip]));
}

/** A key's day checks unjudged for its day probe's 5 429s that named no quota ("20, 100"). */
function untoldDayOf(key: string, exact: string, gap: string): FixedVerdict['checks'] {
  const why = (what: string) => ({
    outcome: 'skip',
    messages: [],
    reason:
      `${what}, and 5 of the day probe's 429s said no quota's figure (X-RateLimit-Limit "20, 100"): any of them may ` +
      "have been the day quota's, so the day is not shown unenforced",
    fix: 'X-RateLimit-* of the refusing quota, one value each, on every 429 (§8.2; quota.headers.valid judges them)',
  });
  const gaps = ['day.retry-after', 'day.headers', 'rejected.consume'].map((id) => [`quota.${id}[${key}]`, why(gap)]);
  return { [`quota.day.exact[${key}]`]: why(exact), ...Object.fromEntries(gaps) };
}

/** A kept live run of slowapi's sliding counter, recorded before the day probe's first wave after a hold changed. */
const keptCounter = (name: string): Recording => ({
  name,
  proof: 'slowapi sliding-counter',
  kept: true,
  repaced: { keys: ['free', 'pro'] },
});

/**
 * The reference server as a sliding log, a sliding window counter and a declared token bucket (spec/GAPS.md
 * "Limiter model"), each with one fault on the free key alone, and the rules that catch it. A declared bucket's
 * minute count is allowed what it refills over the count's span, so its burst may be what catches one more.
 */
const MODEL_FAULTS: Recording[] = (['sliding-log', 'sliding-counter', 'token-bucket'] as const).flatMap((model) => {
  const declared = model === 'token-bucket' ? { declared: 'token-bucket' as const } : {};
  const base = { variants: { limiterModel: model }, freeOnly: true, ...declared };
  const overAdmit = model === 'token-bucket' ? ['quota.minute.exact', 'quota.burst.exact'] : ['quota.minute.exact'];
  return [
    {
      name: `reference-${model}-overAdmit`,
      reference: { ...base, faults: { overAdmit: 1 }, only: ['minute', 'burst'] },
      catches: overAdmit,
    },
    {
      name: `reference-${model}-noRetryAfter`,
      reference: { ...base, faults: { retryAfter: 'missing' }, only: ['minute'] },
      catches: ['quota.retry-after.present'],
    },
    {
      name: `reference-${model}-noDay`,
      reference: { ...base, faults: { noDayQuota: true }, only: ['day'] },
      catches: ['quota.day.exact'],
    },
  ];
});

export const RECORDINGS: Recording[] = [
  { name: 'reference', reference: {} },
  { name: 'reference-sliding-log', reference: { variants: { limiterModel: 'sliding-log' } } },
  { name: 'reference-overAdmit', reference: { faults: { overAdmit: 1 }, only: ['minute', 'burst'], freeOnly: true } },
  // A fault in each other model petcert accepts is still caught (the reference server as that model).
  ...MODEL_FAULTS,
  { name: 'erl', proof: 'erl' },
  { name: 'erl-noDay', proof: 'erl noDay' },
  { name: 'rlf', proof: 'rlf' },
  { name: 'token-bucket', proof: 'token-bucket' },
  { name: 'token-bucket-overAdmit', proof: 'token-bucket overAdmit' },
  // Behind a loopback proxy (testkit/limiters/wrappers.ts): 150 ms away, a Date 40 s behind, answers out of order
  // (0–80 ms each). Live in bench:limiters only; the limiters themselves keep their live e2e rows.
  { name: 'erl-latency', proof: 'erl latency 150ms' },
  { name: 'erl-latency-overAdmit', proof: 'erl latency 150ms overAdmit' },
  { name: 'token-bucket-latency', proof: 'token-bucket latency 150ms' },
  { name: 'erl-skew', proof: 'erl skew -40s' },
  { name: 'erl-out-of-order', proof: 'erl out-of-order' },
  { name: 'rlf-out-of-order', proof: 'rlf out-of-order' },
  { name: 'token-bucket-out-of-order', proof: 'token-bucket out-of-order' },
  { name: 'gcra-out-of-order', proof: 'gcra out-of-order' },
  { name: 'erl-out-of-order-noDay', proof: 'erl out-of-order noDay' },
  // sethvargo/go-limiter: Reset and Retry-After are RFC 1123 dates in UTC; the Retry-After's wait is held.
  { name: 'go-limiter', proof: 'go-limiter' },
  // ulule/limiter, two middlewares each adding its X-RateLimit-*: the day's 429s carry "20, 100" and name no quota.
  {
    name: 'ulule',
    proof: 'ulule',
    fixed: {
      why:
        'the free day search met 5 429s whose X-RateLimit-Limit was "20, 100" (both limiters\' values) and failed ' +
        'quota.day.exact "without a day-quota 429": any of them may have been the day\'s; day-refusal.ts untoldDay',
      exit: 1,
      verdict: 'fail',
      checks: untoldDayOf(
        'free',
        'paced at 20 per minute window, 280 requests were admitted over 45 s (plan: 100 per day)',
        '280 requests admitted over 45 s at the minute pace',
      ),
    },
  },
  // Fastify's rate-limit plugin as it comes: X-RateLimit-Reset in seconds to go, not a Unix time (§8.2).
  {
    name: 'fastify-stock',
    proof: 'fastify-stock',
    fixed: {
      why:
        "each day 429's Reset was a count of seconds to go: the day checks were left unjudged as if the 429 said " +
        "nothing of the day's end, though its Retry-After did; day-rules.ts endUnknown names the Reset as the cause",
      exit: 1,
      verdict: 'fail',
      checks: { ...resetAsSecondsToGo('free', 10), ...resetAsSecondsToGo('pro', 4) },
    },
  },
  // Reset floored to the second (one window's end can read as two seconds), two replicas, nginx's Date.
  { name: 'rlf-redis', proof: 'rlf-redis' },
  { name: 'rlf-redis-wrongRemaining', proof: 'rlf-redis wrongRemaining' },
  {
    name: 'rlf-redis-floor-reset-wave',
    proof: 'rlf-redis',
    repaced: { keys: ['free', 'pro'] },
    fixed: {
      why:
        "one wave of the pro minute count (its 200s report the day) named the day window's end as 1795908102 and " +
        '1795908103 (Math.floor of now + msBeforeNext); read in that Reset order it went "from 83 to 98": ' +
        'judge.ts remainingCountdown now also reads such a wave in falling Remaining, where it counts down by one',
      exit: 0,
      verdict: 'pass',
      checks: { 'quota.headers.remaining[pro]': { outcome: 'pass', messages: [] } },
    },
  },
  {
    name: 'slowapi-moving-window-day-exact',
    proof: 'slowapi moving-window',
    repaced: { keys: ['pro'] },
    fixed: {
      why:
        "slowapi's moving window (a log) was told fixed by a loaded minute count, and its day 429 failed " +
        '"2 requests admitted in one day window" when 102 of the key\'s requests had filled the day\'s 20 s: ' +
        'day-rules.ts countedExact now also reads the rolling reading (day-rolling.ts), and leaves it unjudged',
      exit: 4,
      verdict: 'incomplete',
      checks: {
        'quota.day.exact[free]': {
          outcome: 'skip',
          messages: [],
          reason:
            "2 requests admitted in the day window the minute count's model implies before the day 429, but 102 of " +
            "this key's requests were admitted within a day's length (20 s) before the day 429: a rolling day refuses " +
            "it, and the counted day's first answer (Remaining 19 of 20) did not declare a fresh window",
          fix: "day answers that show the day's model: a fixed day's first answer reports Remaining perDay − 1, a rolling one's what is left",
        },
        'quota.day.retry-after[free]': { outcome: 'pass', messages: [] },
      },
    },
  },
  {
    name: 'erl-skew-minute-exact',
    proof: 'erl skew -40s',
    fixed: {
      why:
        'the pro minute count (its 200s report the day) took 2138 ms of a 2 s window on a loaded machine: 40 ' +
        'admitted, 22 429s, then one more 200 in the next window; told fixed by the count, 41 failed as one window: ' +
        'minute-rules.ts straddledUntied leaves such a count unjudged (no Reset ties it to one window)',
      exit: 4,
      verdict: 'incomplete',
      checks: {
        'quota.minute.exact[pro]': {
          outcome: 'skip',
          messages: [],
          reason:
            '41 admitted from a full minute allowance, the plan allows 40, but over 2138 ms, longer than one 2 s window, ' +
            "and their headers report another quota: a fixed window's end may fall among them",
          fix: 'a longer minute window (plans file: windows.minuteSeconds) or a target closer to petcert',
        },
      },
    },
  },
  {
    name: 'slowapi-sliding-counter-overadmit-one-end',
    proof: 'slowapi sliding-counter overAdmit burst',
    fixed: {
      why:
        'the overAdmit twin (21 per window) PASSed: its count and its burst each admitted 21 within 0.2 s, every ' +
        "answer naming one end of the counter's window, and a counter's allowance across its own window end let " +
        'one more in: models/allowance.ts allowanceFor gives none where the answers name one end (reading.ts namesOneEnd)',
      exit: 1,
      verdict: 'fail',
      checks: {
        'quota.minute.exact[free]': {
          outcome: 'fail',
          messages: [
            '21 admitted within 0.1 s of one 2 s minute: a bucket of 20 refilled at 20 per minute admits up to 39 per ' +
              "minute; judged under the window reading (at most 20 in any window's length)",
          ],
        },
        'quota.burst.exact[free]': {
          outcome: 'fail',
          messages: [
            '40 simultaneous requests on a fresh window: 21 admitted, the plan allows 20: 21 admitted within 0.2 s of ' +
              'one 2 s minute: a bucket of 20 refilled at 20 per minute admits up to 39 per minute; judged under the ' +
              "window reading (at most 20 in any window's length)",
          ],
        },
      },
    },
  },
  {
    name: 'httprate-day-declared-windows',
    proof: 'httprate',
    repaced: { keys: ['free'] },
    fixed: {
      why:
        "httprate's pro day, paced at the minute rate, admitted 40 answers naming the day window ending at 1795936635 " +
        "and then 121 naming the next one (1795936655) within 12.3 s: 161 within a day's length failed quota.day.exact " +
        "under the rolling reading, though each window the day's own Resets declared held at most 160: " +
        'day-sliding.ts now also reads the fixed windows those Resets declare (declared-windows.ts)',
      exit: 1,
      verdict: 'fail',
      checks: { 'quota.day.exact[pro]': { outcome: 'pass', messages: [] } },
    },
  },
  // Live false FAILs of the correct limits counter: a burst that crossed its own window end (40 before it, then 3
  // on its weighted steps; 17 before it, then 25). Their verdicts are the re-judged ones (reading.ts
  // ownEndCrossed), each check's outcome the live run's but quota.burst.exact, the live verdict kept as `live`.
  keptCounter('slowapi-sliding-counter-straddle'),
  keptCounter('slowapi-sliding-counter-straddle-part'),
  // The free burst: 1 answer before the end, 20 after it a second later (the last window held 2: steps of 1 s).
  keptCounter('slowapi-sliding-counter-straddle-second'),
  // One window end read 8 ms apart on a busy server (Reset .0079842 among .00001): Remaining read out of order.
  keptCounter('slowapi-sliding-counter-reset-noise'),
];

/** The proof a recording was made of (testkit/limiters/all-proofs.ts), if any. */
export const proofOf = (r: Recording): Proof | undefined =>
  r.proof === undefined ? undefined : ALL_PROOFS.find((p) => p.name === r.proof);

/** The rules any of which a faulty server's recording must fail re-judged: its own, or the one its proof expects. */
export function caughtBy(r: Recording): string[] | undefined {
  const expect = proofOf(r)?.expect;
  return r.catches ?? (expect === undefined || expect === 'pass' ? undefined : [expect]);
}

/** What the live run said, written beside its journal at recording time (never by hand). */
export interface RecordedVerdict {
  recordedWith: string;
  exit: number;
  verdict: string;
  /** The live run's wall time, ms. */
  liveMs: number;
  checks: Array<{ id: string; outcome: string; messages: string[]; reason?: string; fix?: string }>;
  /** A live run petcert misjudged, kept as a regression: what it said then (the verdict above is the corrected one). */
  live?: { verdict: string; failed: string[] };
}

/** What a verdict is made of: each check's id, outcome, messages, reason and fix (absent ones left out). */
export const checkVerdicts = (report: Pick<Report, 'checks'>): RecordedVerdict['checks'] =>
  report.checks.map((c) => ({
    id: c.id,
    outcome: c.outcome,
    messages: c.failures.map((f) => f.message),
    ...(c.skipReason !== undefined ? { reason: c.skipReason } : {}),
    ...(c.fix !== undefined ? { fix: c.fix } : {}),
  }));

/** report.json of a report directory's latest run. */
export const readLatestReport = (root: string): Report =>
  JSON.parse(readFileSync(join(root, 'latest', 'report.json'), 'utf8')) as Report;

export const readVerdict = (name: string): RecordedVerdict =>
  JSON.parse(readFileSync(`${JOURNALS_DIR}${name}.verdict.json`, 'utf8')) as RecordedVerdict;

/**
 * What a check stopped by a request paced differently says, as recordings.test.ts reads it: the reason names the
 * request and how far off it was asked, which the test reads as this mark.
 */
export const PACED_DIFFERENTLY = {
  mark: '(paced differently)',
  reason: /paces differently from the one that recorded it/,
};
/** The verdict re-judging a recording must give: the recorded one, with a regression's fixed checks. */
export function expectedVerdict(r: Recording): Pick<RecordedVerdict, 'exit' | 'verdict' | 'checks'> {
  const recorded = readVerdict(r.name);
  const fixed = r.fixed;
  const checks = recorded.checks.map((c) => (fixed?.checks[c.id] ? { id: c.id, ...fixed.checks[c.id]! } : c));
  return { exit: fixed?.exit ?? recorded.exit, verdict: fixed?.verdict ?? recorded.verdict, checks };
}

type CheckVerdict = RecordedVerdict['checks'][number];

/**
 * Whether a repaced recording's check re-judged as `got` (absent: no longer judged at all) is what pacing it
 * differently explains: as recorded, stopped where the replay stopped, or judged on fewer of the key's
 * answers (a subset of its failures). Checks of other keys and those the regression is kept for are compared
 * whole instead (`looseInRepaced`).
 */
export function repacedAllows(expected: CheckVerdict, got: CheckVerdict | undefined): boolean {
  if (got === undefined || (got.outcome === 'skip' && got.reason === PACED_DIFFERENTLY.mark)) return true;
  if (JSON.stringify(got) === JSON.stringify(expected)) return true;
  const fewer = got.messages.every((m) => expected.messages.includes(m));
  return fewer && (got.outcome === expected.outcome || (expected.outcome === 'fail' && got.outcome === 'pass'));
}

/** Which checks a repaced recording may see change (`repacedAllows`): its repaced keys', but those kept for the regression. */
export function looseInRepaced(r: Recording): (id: string) => boolean {
  const kept = new Set([...Object.keys(r.fixed?.checks ?? {}), ...(readVerdict(r.name).live?.failed ?? [])]);
  return (id) => {
    const key = /\[([^\]]+)\]$/.exec(id)?.[1];
    return r.repaced !== undefined && key !== undefined && r.repaced.keys.includes(key) && !kept.has(id);
  };
}

export interface Target {
  baseUrl: string;
  /** API key → plan. */
  keys: Record<string, string>;
  /** The quota flags besides --base-url, --key, --plans. */
  args: string[];
  close(): Promise<void>;
}

const freeKeys = () => Object.fromEntries(Object.entries(PROOF_KEYS).filter(([, plan]) => plan === 'free'));

/** Starts the recording's server (PROOF_PLANS unless its proof says otherwise): what to run petcert quota against. */
export async function startRecording(r: Recording): Promise<Target & { plans: object }> {
  if (r.reference) {
    const keys = r.reference.freeOnly ? freeKeys() : { ...PROOF_KEYS };
    const { faults, variants } = r.reference;
    const server = await listen({ plans: parsePlansFile(PROOF_PLANS), keys, faults, variants });
    const args = [
      ...(r.reference.only ?? []).flatMap((p) => ['--only', p]),
      ...(r.reference.declared ? ['--limiter-model', r.reference.declared] : []),
    ];
    return { baseUrl: server.baseUrl, keys, args, plans: PROOF_PLANS, close: () => server.close() };
  }
  const proof = proofOf(r);
  if (!proof) throw new Error(`no limiter proof named ${JSON.stringify(r.proof)}`);
  const plans = proof.plans ?? PROOF_PLANS;
  const keys = proof.freeOnly ? freeKeys() : { ...PROOF_KEYS };
  const service = await startService(proof.service, {
    plans: parsePlansFile(plans),
    keys,
    fault: proof.fault,
    wrap: proof.wrap,
  });
  const args = [
    ...(proof.only ?? []).flatMap((p) => ['--only', p]),
    ...(proof.declared ? ['--limiter-model', proof.declared] : []),
  ];
  return { baseUrl: service.baseUrl, keys, args, plans, close: () => service.close() };
}
