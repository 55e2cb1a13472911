// The proofs of docs/decisions/007 as data, shared by the e2e tests (one server per file) and the repeat
// bench (bench/verdict-stability.ts, ten runs each): which service, which fault or wrapper, which probes,
// and what petcert must say — PASS with every MUST judged, or FAIL on the one check the fault breaks.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parsePlansFile, type DeclaredModel, type PlanTable } from '../../spec/plans.ts';
import { LIMITER_FAULTS, type LimiterFault } from './faults.ts';
import { startService } from './start.ts';
import { runQuota, type RunVerdict } from './verdict.ts';
import type { WrapOptions } from './wrappers.ts';

/** Compressed windows: 2 s "minutes", 20 s "days"; a day is five free minutes, four pro ones. */
export const PROOF_PLANS = {
  windows: { minuteSeconds: 2, daySeconds: 20 },
  plans: { free: { perMinute: 20, perDay: 100 }, pro: { perMinute: 40, perDay: 160 } },
} as const;

/**
 * A pro day of six minutes: its minute and burst probes do not spend the day before the burst is
 * judged, and a bucket's day refills at 12/s against a 20/s minute pace (it runs dry after 30 s, longer
 * than a day window).
 */
export const ROOMY_PLANS = {
  windows: { minuteSeconds: 2, daySeconds: 20 },
  plans: { free: { perMinute: 20, perDay: 100 }, pro: { perMinute: 40, perDay: 240 } },
} as const;

/**
 * ROOMY_PLANS on 3 s windows, for answers out of order (0-80 ms each): the pro count of 40 in the window after a 429
 * ran past a 2 s window's end on a loaded machine (1 clean-clone run in 4), an honest "slow target" unjudged.
 */
export const ROOMY_SLOW_PLANS = {
  windows: { minuteSeconds: 3, daySeconds: 30 },
  plans: ROOMY_PLANS.plans,
} as const;

/**
 * A free day of three minutes: a counter refusing early and asking for a whole window each time (go-chi/httprate)
 * paces a key at about 113 admitted per 20 s, too near a day of 100 for the day probe to reach it under load.
 */
export const SHORT_DAY_PLANS = {
  windows: { minuteSeconds: 2, daySeconds: 20 },
  plans: { free: { perMinute: 20, perDay: 60 }, pro: { perMinute: 40, perDay: 160 } },
} as const;

/** For the far-away server: 150 ms is 5 % of a 3 s window. */
export const SLOW_PLANS = {
  windows: { minuteSeconds: 3, daySeconds: 30 },
  plans: { free: { perMinute: 20, perDay: 100 }, pro: { perMinute: 40, perDay: 160 } },
} as const;

export const PROOF_KEYS = { pc_free_limiters: 'free', pc_pro_limiters: 'pro' } as const;

export interface Proof {
  /** Row of the repeat table and the test's title, e.g. "erl noDay". */
  name: string;
  service: string;
  fault?: LimiterFault;
  wrap?: WrapOptions;
  /** --only probes (default: all). */
  only?: string[];
  /** Plans (default PROOF_PLANS); both keys unless `freeOnly`. */
  plans?:
    typeof PROOF_PLANS | typeof SLOW_PLANS | typeof ROOMY_PLANS | typeof ROOMY_SLOW_PLANS | typeof SHORT_DAY_PLANS;
  freeOnly?: boolean;
  /** --limiter-model: the model the vendor declares (a bucket's rows); undefined, the window reading. */
  declared?: DeclaredModel;
  /** 'pass', or the check (without its [plan]) the faulty twin must fail. */
  expect: 'pass' | string;
  /** The expected check is the only MUST that fails (a FAIL row of a real library: nothing else is its fault). */
  alone?: true;
}

/** A bucket's rows as its vendor states them: its plans are rates (`--limiter-model token-bucket`). */
export const declaredBucket = (rows: readonly Proof[]): Proof[] =>
  rows.map((p) => ({ ...p, declared: 'token-bucket' }));

/**
 * A bucket nobody declared, judged under the window reading: its day admits past perDay within one day's
 * length (what it refills while the probe drains it), so quota.day.exact fails. Its minute count may not
 * show it: a count faster than one token's refill admits exactly the figure.
 */
export const undeclaredBucket = (service: string, label = service): Proof => ({
  name: `${label} undeclared`,
  service,
  only: ['day'],
  freeOnly: true,
  expect: 'quota.day.exact',
});

/** The four faulty twins of a service, each with the probe that catches it, on the free key alone; rows named `${label} FAULT`. */
export function twins(service: string, faults: readonly LimiterFault[] = LIMITER_FAULTS, label = service): Proof[] {
  const caught: Record<LimiterFault, [string, string]> = {
    overAdmit: ['minute', 'quota.minute.exact'],
    wrongRemaining: ['minute', 'quota.headers.remaining'],
    noRetryAfter: ['minute', 'quota.retry-after.present'],
    noDay: ['day', 'quota.day.exact'],
  };
  return faults.map((fault) => ({
    name: `${label} ${fault}`,
    service,
    fault,
    only: [caught[fault][0]],
    freeOnly: true,
    expect: caught[fault][1],
  }));
}

export function plansFile(plans: Proof['plans'] = PROOF_PLANS): { file: string; table: PlanTable } {
  const file = join(mkdtempSync(join(tmpdir(), 'petcert-limiters-plans-')), 'plans.json');
  writeFileSync(file, JSON.stringify(plans));
  return { file, table: parsePlansFile(plans) };
}

/** Bound of one proof run: the printed worst case is minutes; these runs take ≈ 2 days of windows. */
export const PROOF_TIMEOUT_MS = 150_000;

/** Starts the proof's server, runs petcert quota on it, stops the server. */
export async function runProof(proof: Proof): Promise<RunVerdict> {
  const { file, table } = plansFile(proof.plans);
  const entries = Object.entries(PROOF_KEYS).filter(([, plan]) => !proof.freeOnly || plan === 'free');
  const keys = Object.fromEntries(entries);
  const service = await startService(proof.service, { plans: table, keys, fault: proof.fault, wrap: proof.wrap });
  try {
    const args = entries.flatMap(([key, plan]) => ['--key', `${plan}=${key}`]);
    for (const only of proof.only ?? []) args.push('--only', only);
    if (proof.declared) args.push('--limiter-model', proof.declared);
    return await runQuota(service.baseUrl, args, { plansFile: file, timeoutMs: PROOF_TIMEOUT_MS });
  } finally {
    await service.close();
  }
}

/** Whether the run said what the proof expects: the message for a failed assertion, or undefined. */
export function judgeProof(proof: Proof, v: RunVerdict): string | undefined {
  if (proof.expect === 'pass') {
    if (v.code === 0 && v.failed.length === 0 && v.unjudged.length === 0) return undefined;
    const failed = v.failed.map((f) => `  ✗ ${f.id}: ${f.message}`);
    const unjudged = v.unjudged.map((u) => `  ? ${u.id}: ${u.reason}`);
    return `expected PASS with every MUST judged, got exit ${v.code}\n${[...failed, ...unjudged].join('\n')}\n${v.tail}`;
  }
  const others = v.failed.filter((f) => !f.id.startsWith(`${proof.expect}[`));
  if (v.code === 1 && others.length < v.failed.length && !(proof.alone && others.length > 0)) return undefined;
  return `expected FAIL on ${proof.expect}, got exit ${v.code}, failed: ${v.failed.map((f) => f.id).join(', ') || 'none'}\n${v.tail}`;
}
