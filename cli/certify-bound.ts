// `petcert certify`'s worst-case duration (every wait ends: docs/decisions/006): each conform run is bounded by its
// run timeout (plus a request's timeout in flight), the quota probes by their own bound (load/probes/bounds.ts).
import { CONFORM_DEFAULTS, conformBoundMs } from '../conformance/run.ts';
import { type Bound } from '../load/probes/bounds.ts';
import { formatBound } from '../core/duration.ts';
import { quotaBoundOf } from '../load/quota.ts';
import type { PlanTable } from '../spec/plans.ts';
import type { ConformKey, KeyedPlan } from './config-file.ts';

export interface CertifyBoundInput {
  conformKeys: readonly ConformKey[];
  quotaKeys: KeyedPlan[];
  plans: PlanTable;
  maxWaitMs?: number;
  /** The quota probes are refused (production without --allow-production): they add nothing. */
  quotaRefused?: boolean;
}

export function certifyBound(input: CertifyBoundInput): Bound {
  const conformMs = input.conformKeys.length * conformBoundMs();
  const quota =
    input.quotaRefused || input.quotaKeys.length === 0
      ? { totalMs: 0, parts: ['quota probes not run'] }
      : quotaBoundOf({
          keys: input.quotaKeys,
          plans: input.plans,
          ...(input.maxWaitMs !== undefined ? { maxWaitMs: input.maxWaitMs } : {}),
        });
  return {
    totalMs: conformMs + quota.totalMs,
    parts: [
      `conform ${input.conformKeys.length} × ${formatBound(conformBoundMs())} (its run timeout + a request's)`,
      `quota ${formatBound(quota.totalMs)}: ${quota.parts.join('; ')}`,
    ],
  };
}

export const CERTIFY_BOUND_HELP =
  `Every wait ends: the run's worst case = conform keys × (conform's run timeout` +
  ` ${formatBound(CONFORM_DEFAULTS.runTimeoutMs)} + a request's ${formatBound(CONFORM_DEFAULTS.timeoutMs)})
+ the quota probes' worst case (its formula: load/README.md), printed at start; --max-wait caps each quota wait.`;
