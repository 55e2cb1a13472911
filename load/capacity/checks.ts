// The capacity checks as rules (report/check.ts): each is its metadata, a guard saying when it cannot
// speak about this run, and a pure judge over one typed observation of the run (its judged steps, its
// canaries, whether it was interrupted). `judgeCapacity` records them all into one ledger. Quota under
// load is the specification's (§8); the headroom is the operator's question, asked of the plan figures
// of §8.1 and judged against --slo/--min-headroom.
import { defineCheck as def, verdict, type Rule, type Unjudged, type Verdict } from '../../report/check.ts';
import { createLedger, judgeRule, resultOf, verdictsOf } from '../../report/ledger.ts';
import type { CheckResult } from '../../report/model.ts';
import type { CapacityVerdict } from '../../report/capacity.ts';
import type { CanaryFindings } from './canary.ts';
import { KEY_SHARE } from './plan.ts';

export const CAPACITY_CHECKS = {
  headroom: def(
    'capacity.headroom',
    'MUST',
    '§8.1 (plan rates of the mix) + --slo, --min-headroom',
    'The service holds min-headroom × the planned rate of the customer mix within the SLO',
  ),
  below429: def(
    'capacity.quota.below-quota-429',
    'MUST',
    '§8.3 rule 1',
    'Under aggregate load no key below its quota gets 429 (each key carries ≤ 90 % of its quota)',
  ),
  canaryExact: def(
    'capacity.quota.canary-exact',
    'MUST',
    '§8.1',
    'Under load, a canary key driven past its quota admits exactly its quota per minute window',
  ),
  canaryRetryAfter: def(
    'capacity.quota.canary-retry-after',
    'MUST',
    '§8.3 rule 2',
    "Under load, the canaries' 429 responses carry Retry-After",
  ),
} as const;

/** What a capacity run saw: the steps as judged (verdict.ts), and the canaries' windows or why none ran. */
export interface CapacityObservation {
  capacity: CapacityVerdict;
  canaries: { judged: CanaryFindings } | { skipped: Unjudged };
  /** Set when petcert's SIGINT/SIGTERM ended the steps early: a pass on the steps done is not proven. */
  interrupted?: { done: number; total: number };
}

/** Why the headroom says nothing of the target: petcert's generator or its keys ran out before it broke. */
export interface Bound extends Unjudged {
  code: 'GENERATOR_BOUND' | 'KEYS_BOUND';
  fix: string;
}

/** Below --min-headroom with the generator (or the keys) the limit: no verdict on the target, never a failure. */
export function boundOf(v: CapacityVerdict): Bound | undefined {
  if (v.headroom >= v.minHeadroom) return undefined;
  if (v.generatorBoundAt !== null) {
    const reason =
      `generator-bound at ${v.generatorBoundAt} req/s: petcert's load generator saturated before the target` + ' broke';
    return {
      code: 'GENERATOR_BOUND',
      reason,
      fix: 'use --emit-testrun (several runners) or a stronger machine for k6',
    };
  }
  if (v.keysBoundAt !== null && v.breakingRate === null) {
    const reason =
      `scaled to keys: the keys carry at most ${v.keysBoundAt} req/s, below ${v.minHeadroom} × the planned ` +
      `${v.plannedRate} req/s, and nothing broke`;
    return {
      code: 'KEYS_BOUND',
      reason,
      fix: 'more keys in the key file (without --scale-to-keys petcert says how many)',
    };
  }
  return undefined;
}

/** A planned canary sends 1.5 × its quota in a window: one that met no 429 was cut short or throttled. */
const CANARY_UNJUDGED_FIX =
  "see the k6 log for the canary's transport errors; a longer --step-seconds gives it more time";

const failures = (messages: readonly string[]): Verdict =>
  messages.length ? verdict.fail(...(messages.map((message) => ({ message })) as [{ message: string }])) : verdict.pass;

/** The canaries' findings, or the Verdict that stands for them when none ran. */
const canariesOf = (o: CapacityObservation): CanaryFindings | Verdict =>
  'skipped' in o.canaries ? verdict.unjudgedBy(o.canaries.skipped) : o.canaries.judged;

type CapacityRule = Rule<CapacityObservation>;

const headroom: CapacityRule = {
  check: CAPACITY_CHECKS.headroom,
  applies: (o) => {
    const bound = boundOf(o.capacity);
    return bound && verdict.unjudgedBy(bound);
  },
  judge: ({ capacity: v }) => (v.headroom >= v.minHeadroom ? verdict.pass : verdict.fail({ message: v.summary })),
  facts: ({ capacity: v }) => ({
    plannedRate: v.plannedRate,
    sustainedRate: v.sustainedRate,
    breakingRate: v.breakingRate,
    headroom: v.headroom,
  }),
};

const below429: CapacityRule = {
  check: CAPACITY_CHECKS.below429,
  // No step that got an answer is nothing judged, never a pass (k6 sent nothing, no step ran, or no
  // request reached the service: a 429 cannot be missing from answers that never came).
  applies: ({ capacity }) =>
    capacity.steps.some((s) => s.requests - (s.noAnswer ?? 0) > 0)
      ? undefined
      : verdict.unjudged(
          'no load step got an HTTP answer',
          'check that k6 reaches the target (the step lines above show what it sent), then run again',
        ),
  judge: ({ capacity }) =>
    failures(
      capacity.steps
        .filter((s) => s.below_quota_429 > 0)
        .map(
          (s) =>
            `${s.below_quota_429} × 429 at ${s.offeredRate} req/s offered, every key at ≤ ${KEY_SHARE * 100} % of its quota`,
        ),
    ),
};

const canaryExact: CapacityRule = {
  check: CAPACITY_CHECKS.canaryExact,
  applies: (o) => {
    const c = canariesOf(o);
    if ('kind' in c) return c;
    return c.judged === 0 ? verdict.unjudged(c.unjudged.join('; '), CANARY_UNJUDGED_FIX) : undefined;
  },
  judge: (o) => {
    const c = canariesOf(o) as CanaryFindings;
    return failures([...c.overAdmitted, ...c.underAdmitted]);
  },
  // The canaries that judged nothing beside those that did, so a reader sees what the verdict rests on.
  facts: (o) => {
    const c = canariesOf(o);
    return 'kind' in c || !c.unjudged.length ? undefined : { unjudged: c.unjudged };
  },
};

const canaryRetryAfter: CapacityRule = {
  check: CAPACITY_CHECKS.canaryRetryAfter,
  applies: (o) => {
    const c = canariesOf(o);
    if ('kind' in c) return c;
    return c.rejected === 0 ? verdict.unjudged('no canary received a 429', CANARY_UNJUDGED_FIX) : undefined;
  },
  judge: (o) => failures((canariesOf(o) as CanaryFindings).missingRetryAfter),
};

export const CAPACITY_RULES: readonly CapacityRule[] = [headroom, below429, canaryExact, canaryRetryAfter];

/** Run-level checks need every step: interrupted, a pass on the steps done is not proven (a failure seen stays). */
function unproven(rule: CapacityRule, o: CapacityObservation): CapacityRule {
  if (!o.interrupted) return rule;
  const why = `not judged: the run was interrupted after ${o.interrupted.done} of ${o.interrupted.total} steps`;
  const judge = (x: CapacityObservation) =>
    verdictsOf(rule.judge(x)).map((v) =>
      v.kind === 'pass'
        ? verdict.unjudged(why, 'run again without interrupting it (every step is needed for this verdict)')
        : v,
    );
  return { ...rule, judge };
}

/** Every capacity rule judged into one ledger (the run's), in the table's order. */
export function judgeCapacity(o: CapacityObservation): CheckResult[] {
  const ledger = createLedger();
  for (const rule of CAPACITY_RULES) judgeRule(ledger, unproven(rule, o), o);
  return ledger.entries().map(([check, entry]) => resultOf(check, entry, { secrets: [] }));
}
