// How `--budget N` (requests of a whole run, retries included) is shared:
//   1 preflight request, the coverage phase (its cases' worst-case cost, known before the run starts:
//   conformance/coverage/cases.ts), a population reserve (enough pets to see list-size violations: ≥ 101
//   in total, ≥ 21 of each status; pets created by the create check count towards it), then the rest
//   split among the scenario checks by weight. Each check plans runs = share × 0.75 / cost (capped by
//   maxRuns) and keeps the last quarter for shrinking a counterexample. A check whose share cannot buy
//   one run is skipped with reason "budget". Response checks cost nothing: they judge every exchange.
import { coverageCost } from '../coverage/cases.ts';

export const POPULATION_TARGET = { total: 101, perStatus: 21 } as const;
export const DEFAULT_BUDGET = 400;
/** Below this, a run is the preflight and the coverage phase with almost nothing left to explore. */
export const minBudget = (): number => 1 + coverageCost() + 60;
const SHRINK_RESERVE = 0.25;

export interface Plannable {
  id: string;
  weight: number;
  cost: number;
}

export interface BudgetPlan {
  coverage: number;
  population: number;
  checks: Record<string, { share: number; runs: number }>;
}

export function planBudget(
  budget: number,
  checks: readonly Plannable[],
  maxRuns: number,
  coverage = coverageCost(),
): BudgetPlan {
  const population = Math.min(POPULATION_TARGET.total + 6, Math.floor(budget * 0.3));
  const rest = Math.max(0, budget - 1 - coverage - population);
  const totalWeight = checks.reduce((s, c) => s + c.weight, 0) || 1;
  const out: BudgetPlan['checks'] = {};
  for (const c of checks) {
    const share = Math.floor((rest * c.weight) / totalWeight);
    const runs = Math.min(maxRuns, Math.floor((share * (1 - SHRINK_RESERVE)) / c.cost));
    out[c.id] = { share: Math.max(share, runs * c.cost), runs };
  }
  return { coverage, population, checks: out };
}

/**
 * The least budget whose plan gives every check at least one run: what certify plans each key with
 * (every MUST check runs: docs/decisions/001), and the figure a budget skip names ("raise --budget to N").
 * The plan only grows with the budget, so a bisection finds it.
 */
export function budgetCovering(checks: readonly Plannable[], maxRuns: number, coverage = coverageCost()): number {
  const covers = (budget: number) =>
    Object.values(planBudget(budget, checks, maxRuns, coverage).checks).every((c) => c.runs >= 1);
  let low = minBudget();
  if (covers(low)) return low;
  let high = low * 2;
  for (let i = 0; i < 40 && !covers(high); i += 1) high *= 2;
  while (high - low > 1) {
    const mid = Math.floor((low + high) / 2);
    if (covers(mid)) high = mid;
    else low = mid;
  }
  return high;
}
