// The capacity checks: one table of id → title, level and the section each enforces, and the
// CheckResults a run's figures give them. Quota under load is the specification's (§8); the headroom
// is the operator's question, asked of the plan figures of §8.1 and judged against --slo/--min-headroom.
import { defineCheck as def, type CheckMeta } from '../../report/check.ts';
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

const result = (d: CheckMeta, outcome: CheckResult['outcome'], messages: string[], extra: Partial<CheckResult> = {}): CheckResult => ({
  ...d,
  outcome,
  failures: messages.map((message) => ({ message, request: null, response: null, repro: '' })),
  ...extra,
});

function headroomCheck(v: CapacityVerdict): CheckResult {
  const outcome = outcomeOf(v);
  const observed = { plannedRate: v.plannedRate, sustainedRate: v.sustainedRate, breakingRate: v.breakingRate, headroom: v.headroom };
  if (outcome === 'pass') return result(CAPACITY_CHECKS.headroom, 'pass', [], { observed });
  if (outcome === 'fail') return result(CAPACITY_CHECKS.headroom, 'fail', [v.summary], { observed });
  return result(CAPACITY_CHECKS.headroom, 'skip', [], { observed, skipReason: v.summary });
}

function below429Check(v: CapacityVerdict): CheckResult {
  const bad = v.steps.filter((s) => s.below_quota_429 > 0);
  return result(CAPACITY_CHECKS.below429, bad.length ? 'fail' : 'pass', bad.map((s) => `${s.below_quota_429} × 429 at ${s.offeredRate} req/s offered, every key at ≤ ${KEY_SHARE * 100} % of its quota`));
}

export function capacityChecks(v: CapacityVerdict, canaries: CanaryFindings | null, canarySkip: string | undefined): CheckResult[] {
  const checks = [headroomCheck(v), below429Check(v)];
  if (canaries === null) {
    const reason = canarySkip ?? 'no canary ran';
    checks.push(result(CAPACITY_CHECKS.canaryExact, 'skip', [], { skipReason: reason }), result(CAPACITY_CHECKS.canaryRetryAfter, 'skip', [], { skipReason: reason }));
    return checks;
  }
  const exact = [...canaries.overAdmitted, ...canaries.underAdmitted];
  checks.push(
    canaries.judged === 0
      ? result(CAPACITY_CHECKS.canaryExact, 'skip', [], { skipReason: canaries.unjudged.join('; ') })
      : result(CAPACITY_CHECKS.canaryExact, exact.length ? 'fail' : 'pass', exact, canaries.unjudged.length ? { observed: { unjudged: canaries.unjudged } } : {}),
    canaries.rejected === 0
      ? result(CAPACITY_CHECKS.canaryRetryAfter, 'skip', [], { skipReason: 'no canary received a 429' })
      : result(CAPACITY_CHECKS.canaryRetryAfter, canaries.missingRetryAfter.length ? 'fail' : 'pass', canaries.missingRetryAfter),
  );
  return checks;
}
