import { describe, expect, test } from 'vitest';
import { fixtureReport, minuteSeries } from '../testkit/report/fixtures.ts';
import { exitCodeOf, verdictOf, type Report } from '../report/model.ts';
import { specPlanTable } from '../spec/plans.ts';
import { certify, combineReports, conformBudget, type ConformRun, type QuotaRun, type Runners } from './certify.ts';
import { scenarioChecks } from '../conformance/registry.ts';
import { CONFORM_DEFAULTS } from '../conformance/run.ts';
import { budgetCovering, DEFAULT_BUDGET, planBudget } from '../conformance/runner/budget.ts';

const pass = (id: string): Report['checks'][number] => ({
  id,
  title: id,
  level: 'MUST',
  specRef: '§4.1',
  outcome: 'pass',
  failures: [],
});
const conformReport = (over: Partial<Report> = {}): Report =>
  fixtureReport({
    kind: 'conform',
    checks: [pass('auth.missing'), pass('list.limit')],
    series: undefined,
    requests: 100,
    createdIds: [1],
    seed: 7,
    ...over,
  });
const quotaReport = (over: Partial<Report> = {}): Report =>
  fixtureReport({
    kind: 'quota',
    seed: null,
    checks: [pass('quota.minute.exact[free]'), pass('quota.minute.exact[pro]')],
    series: { 'minute:free': minuteSeries(5, 1) },
    requests: 50,
    createdIds: undefined,
    ...over,
  });
const meta = {
  target: 'http://127.0.0.1:9/v1',
  version: '9.9.9',
  startedAt: '2026-11-22T10:00:00.000Z',
  finishedAt: '2026-11-22T10:05:00.000Z',
};

describe('combineReports', () => {
  const combined = combineReports(
    [
      { label: 'conform[free]', report: conformReport() },
      { label: 'conform[pro]', report: conformReport({ createdIds: [2] }) },
      { label: 'quota', report: quotaReport() },
    ],
    meta,
  );

  test('one certify report: checks prefixed per part, never merged', () => {
    expect(combined.kind).toBe('certify');
    expect(combined.checks.map((c) => c.id)).toEqual([
      'conform[free]/auth.missing',
      'conform[free]/list.limit',
      'conform[pro]/auth.missing',
      'conform[pro]/list.limit',
      'quota/quota.minute.exact[free]',
      'quota/quota.minute.exact[pro]',
    ]);
    // The part is a value too; the prefix is for people and older readers.
    expect(combined.checks.map((c) => c.part)).toEqual([
      'conform[free]',
      'conform[free]',
      'conform[pro]',
      'conform[pro]',
      'quota',
      'quota',
    ]);
  });

  test('requests summed, series merged under their part, created ids gathered, seed kept', () => {
    expect(combined.requests).toBe(250);
    expect(Object.keys(combined.series!)).toEqual(['quota/minute:free']);
    expect(combined.createdIds).toEqual([1, 2]);
    expect(combined.seed).toBe(7);
    expect(combined.startedAt).toBe('2026-11-22T10:00:00.000Z');
    expect(verdictOf(combined)).toBe('pass');
  });

  test('a MUST failure in any part fails the whole certification', () => {
    const failing = quotaReport({ checks: [{ ...pass('quota.day.exact[pro]'), outcome: 'fail' }] });
    const report = combineReports(
      [
        { label: 'conform[free]', report: conformReport() },
        { label: 'quota', report: failing },
      ],
      meta,
    );
    expect(verdictOf(report)).toBe('fail');
    expect(exitCodeOf(report)).toBe(1);
  });

  test('a part that stopped early makes the certification incomplete, naming the part', () => {
    const stopped = quotaReport({ aborted: { code: 'RATE_LIMITED', message: 'endless 429' } });
    const report = combineReports(
      [
        { label: 'conform[free]', report: conformReport() },
        { label: 'quota', report: stopped },
      ],
      meta,
    );
    expect(report.aborted).toEqual({ code: 'RATE_LIMITED', message: 'quota: endless 429' });
    expect(exitCodeOf(report)).toBe(3);
  });
});

describe('certify', () => {
  function fakeRunners(conform: (o: ConformRun) => Report = () => conformReport()) {
    const calls: { conform: ConformRun[]; quota: QuotaRun[] } = { conform: [], quota: [] };
    const runners: Runners = {
      conform: async (o) => (calls.conform.push(o), conform(o)),
      quota: async (o) => (calls.quota.push(o), quotaReport()),
    };
    return { runners, calls };
  }
  const options = {
    baseUrl: 'http://127.0.0.1:9/v1',
    production: true,
    conformKeys: [
      { plan: 'free', key: 'k-conform-free' },
      { plan: 'pro', key: 'k-conform-pro' },
    ],
    quotaKeys: [
      { plan: 'free', key: 'k-free' },
      { plan: 'pro', key: 'k-pro' },
    ],
    plans: specPlanTable(),
    seed: 5,
    budget: 900,
    version: '1',
  };

  // A budget that leaves a scenario check without a run is refused before any request.
  test('the conform budget: planned to run every check; one too small is a usage error naming the figure, before any run', async () => {
    const needed = budgetCovering(scenarioChecks(), CONFORM_DEFAULTS.maxRuns);
    expect(
      Object.values(planBudget(needed, scenarioChecks(), CONFORM_DEFAULTS.maxRuns).checks).every((c) => c.runs >= 1),
    ).toBe(true);
    expect(
      Object.values(planBudget(needed - 1, scenarioChecks(), CONFORM_DEFAULTS.maxRuns).checks).some((c) => c.runs < 1),
    ).toBe(true);
    expect(conformBudget(undefined)).toBe(Math.max(DEFAULT_BUDGET, needed));
    expect(conformBudget(needed)).toBe(needed);
    const { runners, calls } = fakeRunners();
    await expect(
      certify({ ...options, budget: needed - 1, budgetField: 'targets.staging.budget' }, runners),
    ).rejects.toThrow(
      `targets.staging.budget: ${needed - 1} requests per conform key leave MUST checks of conform unrun; certify needs at least ${needed}`,
    );
    expect(calls.conform).toEqual([]);
    const planned = fakeRunners();
    await certify({ ...options, budget: undefined, allowProduction: true }, planned.runners);
    expect(planned.calls.conform.map((c) => c.budget)).toEqual([conformBudget(undefined), conformBudget(undefined)]);
  });

  test('conform with every conform key, then quota once with every quota key', async () => {
    const { runners, calls } = fakeRunners();
    const report = await certify({ ...options, allowProduction: true }, runners);
    expect(calls.conform.map((c) => [c.apiKey, c.seed, c.budget, c.maxWindowSeconds, c.plan])).toEqual([
      ['k-conform-free', 5, 900, 86400, 'free'],
      ['k-conform-pro', 5, 900, 86400, 'pro'],
    ]);
    expect(calls.quota).toHaveLength(1);
    expect(calls.quota[0]).toMatchObject({ keys: options.quotaKeys, production: true, allowProduction: true });
    expect(report.checks).toHaveLength(6);
    expect(report.plans).toEqual(options.plans);
  });

  test('a conform key of no known plan (conformKeyEnv): conform runs without a plan, named by its label', async () => {
    const { runners, calls } = fakeRunners();
    const report = await certify(
      { ...options, allowProduction: true, conformKeys: [{ key: 'k-conform', label: 'PETCERT_CONFORM_KEY' }] },
      runners,
    );
    expect(calls.conform.map((c) => [c.apiKey, c.plan])).toEqual([['k-conform', undefined]]);
    expect(report.checks.map((c) => c.id)).toContain('conform[PETCERT_CONFORM_KEY]/auth.missing');
  });

  test('a production target without --allow-production: conform runs, quota is refused, the verdict is incomplete', async () => {
    const { runners, calls } = fakeRunners();
    const report = await certify(options, runners);
    expect(calls.conform).toHaveLength(2);
    expect(calls.quota).toHaveLength(0);
    expect(report.aborted).toMatchObject({
      code: 'PRODUCTION_REFUSED',
      message: expect.stringMatching(/^quota: .*--allow-production/),
    });
    expect(exitCodeOf(report)).toBe(3);
  });

  test("the specification's production URL is guarded even when the config forgets to say so", async () => {
    const { ENVIRONMENTS } = await import('../spec/contract.ts');
    const production = ENVIRONMENTS.find((e) => e.environment === 'production')!.url;
    const { runners, calls } = fakeRunners();
    await certify({ ...options, baseUrl: production, production: false }, runners);
    expect(calls.quota).toHaveLength(0);
  });

  test("each conform run's progress carries its key's label", async () => {
    const phases: string[] = [];
    const { runners } = fakeRunners((o) => {
      o.progress!({ phase: 'conform', done: 0 });
      o.progress!({ phase: 'conform: population', done: 0 });
      return conformReport();
    });
    await certify({ ...options, allowProduction: true, progress: (e) => phases.push(e.phase) }, runners);
    expect(phases).toEqual(['conform[free]', 'conform[free]: population', 'conform[pro]', 'conform[pro]: population']);
  });

  test('an unreachable target stops the certification after the first part', async () => {
    const { runners, calls } = fakeRunners(() =>
      conformReport({ aborted: { code: 'UNREACHABLE', message: 'connection refused' } }),
    );
    const report = await certify(options, runners);
    expect(calls.conform).toHaveLength(1);
    expect(calls.quota).toHaveLength(0);
    expect(verdictOf(report)).toBe('incomplete');
    expect(exitCodeOf(report)).toBe(3);
  });
});
