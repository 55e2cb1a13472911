// The budget plan: the coverage phase's cost is reserved before anything random, so the seed and the
// budget change only what random exploration gets.
import { expect, test } from 'vitest';
import { coverageCases, coverageCost } from '../coverage/cases.ts';
import { scenarioChecks } from '../registry.ts';
import { minBudget, planBudget } from './budget.ts';

test('the coverage cost is the sum of its cases’ worst cases, reserved first; the rest goes to the scenario checks', () => {
  expect(coverageCost()).toBe(coverageCases().reduce((s, c) => s + c.cost, 0));
  expect(coverageCost()).toBeGreaterThanOrEqual(coverageCases().length);
  for (const budget of [minBudget(), 400, 5000]) {
    const plan = planBudget(budget, scenarioChecks(), 100);
    expect(plan.coverage).toBe(coverageCost());
    const shares = Object.values(plan.checks).reduce((s, c) => s + c.share, 0);
    expect(1 + plan.coverage + plan.population + shares).toBeLessThanOrEqual(budget + scenarioChecks().length);
  }
});

test('the minimum budget still leaves room after the preflight and the coverage phase', () => {
  expect(minBudget()).toBe(1 + coverageCost() + 60);
  const plan = planBudget(minBudget(), scenarioChecks(), 100);
  expect(minBudget() - 1 - plan.coverage - plan.population).toBeGreaterThan(0);
});
