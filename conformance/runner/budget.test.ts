// The budget plan: the coverage phase's cost is reserved before anything random, so the seed and the
// budget change only what random exploration gets.
import { expect, test } from 'vitest';
import { COVERAGE_CASES, COVERAGE_COST } from '../coverage/cases.ts';
import { scenarioChecks } from '../registry.ts';
import { MIN_BUDGET, planBudget } from './budget.ts';

test('the coverage cost is the sum of its cases’ worst cases, reserved first; the rest goes to the scenario checks', () => {
  expect(COVERAGE_COST).toBe(COVERAGE_CASES.reduce((s, c) => s + c.cost, 0));
  expect(COVERAGE_COST).toBeGreaterThanOrEqual(COVERAGE_CASES.length);
  for (const budget of [MIN_BUDGET, 400, 5000]) {
    const plan = planBudget(budget, scenarioChecks(), 100);
    expect(plan.coverage).toBe(COVERAGE_COST);
    const shares = Object.values(plan.checks).reduce((s, c) => s + c.share, 0);
    expect(1 + plan.coverage + plan.population + shares).toBeLessThanOrEqual(budget + scenarioChecks().length);
  }
});

test('the minimum budget still leaves room after the preflight and the coverage phase', () => {
  expect(MIN_BUDGET).toBe(1 + COVERAGE_COST + 60);
  const plan = planBudget(MIN_BUDGET, scenarioChecks(), 100);
  expect(MIN_BUDGET - 1 - plan.coverage - plan.population).toBeGreaterThan(0);
});
