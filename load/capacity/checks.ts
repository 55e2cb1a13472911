// The capacity checks: one table of id → title, level and the section each enforces, and the
// CheckResults a run's figures give them. Quota under load is the specification's (§8); the headroom
// is the operator's question, asked of the plan figures of §8.1 and judged against --slo/--min-headroom.
import { defineCheck as def, type CheckMeta } from '../../report/check.ts';
import { createLedger, resultOf, type Ledger } from '../../report/ledger.ts';
import type { CheckResult } from '../../report/model.ts';
import type { CapacityVerdict } from '../../report/capacity.ts';
import type { CanaryFindings } from './canary.ts';
import { KEY_SHARE } from './plan.ts';
import { outcomeOf } from './verdict.ts';

export const CAPACITY_CHECKS = {
  headroom: def('capacity.headroom', 'MUST', '§8.1 (plan rates of the mix) + --slo, --min-headroom', 'The service holds min-headroom × the planned rate of the customer mix within the SLO'),
  below429: def('capacity.quota.below-quota-429', 'MUST', '§8.3 rule 1', 'Under aggregate load no key below its quota gets 429 (each key carries ≤ 90 % of its quota)'),
  canaryExact: def('capacity.quota.canary-exact', 'MUST', '§8.1', 'Under load, a canary key driven past its quota admits exactly its quota per minute window'),
  canaryRetryAfter: def('capacity.quota.canary-retry-after', 'MUST', '§8.3 rule 2', "Under load, the canaries' 429 responses carry Retry-After"),
} as const;

/** Outcomes through the one ledger (report/ledger.ts): its cap on failures, its result shape. */
function judged(check: CheckMeta, messages: readonly string[], observed?: unknown): Ledger {
  const ledger = createLedger();
  for (const message of messages) ledger.fail(check, { message });
  if (!messages.length) ledger.pass(check);
  if (observed !== undefined) ledger.entry(check).observed = observed;
  return ledger;
}

/** Why a check could not be judged, and what would let it (ledger.skip's fix). */
export interface Unjudged {
  reason: string;
  fix?: string;
}

function skipped(check: CheckMeta, why: Unjudged, observed?: unknown): Ledger {
  const ledger = createLedger();
  ledger.skip(check, why.reason, why.fix === undefined ? {} : { fix: why.fix });
  if (observed !== undefined) ledger.entry(check).observed = observed;
  return ledger;
}

const resultOfOne = (check: CheckMeta, ledger: Ledger): CheckResult => resultOf(check, ledger.entry(check), { secrets: [] });

function headroomCheck(v: CapacityVerdict): CheckResult {
  const outcome = outcomeOf(v);
  const observed = { plannedRate: v.plannedRate, sustainedRate: v.sustainedRate, breakingRate: v.breakingRate, headroom: v.headroom };
  const check = CAPACITY_CHECKS.headroom;
  // Generator- or keys-bound: no verdict on the target (skipped with why), never a failure.
  if (outcome !== 'pass' && outcome !== 'fail') return resultOfOne(check, skipped(check, { reason: v.summary }, observed));
  return resultOfOne(check, judged(check, outcome === 'fail' ? [v.summary] : [], observed));
}

function below429Check(v: CapacityVerdict): CheckResult {
  const bad = v.steps.filter((s) => s.below_quota_429 > 0);
  return resultOfOne(CAPACITY_CHECKS.below429, judged(CAPACITY_CHECKS.below429, bad.map((s) => `${s.below_quota_429} × 429 at ${s.offeredRate} req/s offered, every key at ≤ ${KEY_SHARE * 100} % of its quota`)));
}

export function capacityChecks(v: CapacityVerdict, canaries: CanaryFindings | null, canarySkip: Unjudged | undefined): CheckResult[] {
  const { canaryExact, canaryRetryAfter } = CAPACITY_CHECKS;
  const checks = [headroomCheck(v), below429Check(v)];
  if (canaries === null) {
    const why = canarySkip ?? { reason: 'no canary ran' };
    return [...checks, resultOfOne(canaryExact, skipped(canaryExact, why)), resultOfOne(canaryRetryAfter, skipped(canaryRetryAfter, why))];
  }
  const exact = [...canaries.overAdmitted, ...canaries.underAdmitted];
  const unjudged = canaries.unjudged.length ? { unjudged: canaries.unjudged } : undefined;
  const noneJudged = { reason: canaries.unjudged.join('; '), fix: CANARY_UNJUDGED_FIX };
  const no429 = { reason: 'no canary received a 429', fix: CANARY_UNJUDGED_FIX };
  return [
    ...checks,
    resultOfOne(canaryExact, canaries.judged === 0 ? skipped(canaryExact, noneJudged) : judged(canaryExact, exact, unjudged)),
    resultOfOne(canaryRetryAfter, canaries.rejected === 0 ? skipped(canaryRetryAfter, no429) : judged(canaryRetryAfter, canaries.missingRetryAfter)),
  ];
}

/** A planned canary sends 1.5 × its quota in a window: one that met no 429 was cut short or throttled. */
const CANARY_UNJUDGED_FIX = 'see the k6 log for the canary\'s transport errors; a longer --step-seconds gives it more time';
