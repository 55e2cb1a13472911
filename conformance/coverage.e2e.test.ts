// Proof of the coverage phase: one faulty server per case family, each caught by the case
// that mutates its rule at EVERY seed — random exploration is held to 2 runs per check, so the catch
// is the phase's, not luck's; the correct server records or passes every case at every seed; the
// whole phase runs even at the smallest budget; a case replays alone by name.
import { describe, expect, test } from 'vitest';
import { listen } from '../reference/index.ts';
import { exitCodeOf, type CheckResult, type Report } from '../report/model.ts';
import { coverageCases, coverageCost } from './coverage/cases.ts';
import type { Family } from './coverage/derive.ts';
import { minBudget } from './runner/budget.ts';
import { runConform } from './run.ts';
import { BIG_PLANS, COVERAGE_FAULTS, faultServer } from '../testkit/conformance/faults.ts';

const KEY = 'petcert-coverage-key-0123456789';
const plans = BIG_PLANS;
const SEEDS = [1, 2, 3, 4, 5];
// 400 requests keep the population at 107 pets (a list fault needs more than a page); maxRuns 2 holds
// random exploration to two inputs per check, so what is caught is caught by the coverage phase.
const small = { budget: 400, maxRuns: 2, plan: 'big', plans } as const;

const { at } = faultServer(KEY);
const failing = (r: Report) => r.checks.filter((c) => c.outcome === 'fail').map((c) => c.id);
const coverageOf = (c: CheckResult | undefined) =>
  (c?.observed as { coverage?: Record<string, string> } | undefined)?.coverage ?? {};
const allOutcomes = (r: Report) => Object.assign({}, ...r.checks.map(coverageOf)) as Record<string, string>;

// [family, fault (testkit/conformance/coverage-faults.ts), the case that catches it, its check, other checks the fault legitimately breaks]
const TABLE: Array<[Family, string, string, string, string[]]> = [
  [
    'body-type',
    'storesNullName',
    'NewPet.name:type=null',
    'create.invalid-value',
    ['list.schema', 'create.pet-answer'],
  ],
  ['body-type', 'storesNullStatus', 'NewPet.status:type=null', 'create.pet-answer', ['list.schema', 'get.created']],
  [
    'body-unknown',
    'honoursClientId',
    'NewPet:unknown-field=id',
    'create.id-assigned',
    ['create.unique-ids', 'get.created', 'list.same-animals'],
  ],
  ['body-required', 'createsBlankPetFromEmptyObject', 'NewPet:all-required-missing', 'create.missing-field', []],
  ['body-key-case', 'foldsKeyCase', 'NewPet:keys=upper', 'create.missing-field', []],
  ['body-enum', 'trimsStatus', 'NewPet.status:space-after-available', 'create.invalid-value', []],
  ['body-int64', 'categoryIdThroughDouble', 'NewPet.categoryId:2^53+1', 'create.int64-exact', []],
  ['body-int64', 'readsCategoryIdThroughDouble', 'NewPet.categoryId:2^53+1', 'create.int64-exact', ['get.created']],
  ['limit', 'emptyLimitMeansAll', 'listPets.limit:empty', 'list.max-items', []],
  ['status-filter', 'trimsStatusFilter', 'listPets.status:space-before-sold', 'list.status-filter', []],
  [
    'pet-id',
    'negativePetIdCrashes',
    'getPet.petId:int64-min',
    'get.absent',
    ['get.bad-id', 'server.no-5xx', 'ratelimit.headers-present'],
  ],
  [
    'credentials',
    'ignoresSchemeName',
    'getPet.credentials:other-scheme',
    'auth.invalid-credentials',
    ['auth.before-validation'],
  ],
  [
    'credentials',
    'createAcceptsEmptyBearer',
    'createPet.credentials:empty-token',
    'auth.invalid-credentials',
    ['auth.before-validation'],
  ],
];
/** Families of what the specification leaves open: recorded, never judged, so no fault exists to catch. */
const RECORDED: Family[] = ['unspecified-endpoints'];

test('the table covers every family once, and every coverage fault', () => {
  expect(new Set([...TABLE.map(([f]) => f), ...RECORDED])).toEqual(new Set(coverageCases().map((c) => c.spec.family)));
  expect(TABLE.map(([, fault]) => fault).sort()).toEqual(Object.keys(COVERAGE_FAULTS).sort());
  for (const [, , name] of TABLE)
    expect(
      coverageCases().some((c) => c.spec.name === name),
      name,
    ).toBe(true);
});

describe.concurrent('each family’s fault is caught at every seed', () => {
  test.for(TABLE)('%s: %s → %s', async ([, fault, name, check, also]) => {
    for (const seed of SEEDS) {
      const report = await runConform({ baseUrl: at(fault), apiKey: KEY, seed, ...small });
      expect(report.aborted, `seed ${seed}`).toBeUndefined();
      const result = report.checks.find((c) => c.id === check)!;
      expect(allOutcomes(report)[name], `seed ${seed}`).toMatch(new RegExp(`^fail( \\(.*${check}.*\\))?$`));
      expect(
        result.failures.some(
          (f) =>
            f.message.startsWith(`${name}: `) && (f.counterexample as { replay?: string })?.replay === `--case ${name}`,
        ),
        `seed ${seed}`,
      ).toBe(true);
      expect(
        failing(report).filter((id) => id !== check && !also.includes(id)),
        `seed ${seed}`,
      ).toEqual([]);
      expect(exitCodeOf(report)).toBe(1);
      expect(JSON.stringify(report)).not.toContain(KEY); // the bare-token and unknown-token cases carry the key
    }
  });
});

describe('the correct server', () => {
  test('at every seed: no case fails, every case answered, the recorded families recorded', async () => {
    for (const seed of SEEDS) {
      const report = await runConform({ baseUrl: at('none'), apiKey: KEY, seed, ...small });
      expect(failing(report), `seed ${seed}`).toEqual([]);
      const outcomes = allOutcomes(report);
      expect(Object.keys(outcomes).sort()).toEqual(
        coverageCases()
          .map((c) => c.spec.name)
          .sort(),
      );
      for (const c of coverageCases())
        expect(outcomes[c.spec.name], `${c.spec.name} at seed ${seed}`).toBe(
          RECORDED.includes(c.spec.family) || c.check.level === 'OBSERVE' ? 'recorded' : 'pass',
        );
    }
  });

  test('429s before the phase (each population pet refused three times, then created) do not eat its reserve: every case still runs', async () => {
    const refused = new Map<string, number>();
    const s = await listen({
      keys: { [KEY]: 'big' },
      plans,
      log: () => undefined,
      wrap: (handle) => async (req) => {
        const res = await handle(req);
        const name = req.method === 'POST' ? /"name":"(petcert-population-\d+)/.exec(String(req.body))?.[1] : undefined;
        if (!name || (refused.get(name) ?? 0) >= 3) return res;
        refused.set(name, (refused.get(name) ?? 0) + 1);
        return {
          status: 429,
          headers: { ...res.headers, 'retry-after': '0', 'content-type': 'application/json' },
          body: '{"code":"RATE_LIMITED","message":"slow down","status":429}',
        };
      },
    });
    try {
      // Four requests per pet: the population alone could spend the whole budget.
      const report = await runConform({
        baseUrl: s.baseUrl,
        apiKey: KEY,
        seed: 2,
        budget: 400,
        maxRuns: 100,
        backoffBaseMs: 1,
        max429: 60,
        plan: 'big',
        plans,
      });
      expect(report.aborted).toBeUndefined();
      expect(refused.size).toBeGreaterThan(50);
      expect(report.requests).toBeLessThanOrEqual(400);
      expect(Object.values(allOutcomes(report)).filter((o) => o.startsWith('not run') || o === 'no answer')).toEqual(
        [],
      );
    } finally {
      await s.close();
    }
  });

  test(`the whole phase runs at the smallest budget (${minBudget()}: its ${coverageCost()} requests are reserved first)`, async () => {
    const report = await runConform({
      baseUrl: at('none'),
      apiKey: KEY,
      seed: 9,
      budget: minBudget(),
      maxRuns: 100,
      plan: 'big',
      plans,
    });
    expect(report.aborted).toBeUndefined();
    expect(report.requests).toBeLessThanOrEqual(minBudget());
    // 'not run: the budget is spent' too: the very outcome this test is about.
    expect(Object.values(allOutcomes(report)).filter((o) => o.startsWith('not run') || o === 'no answer')).toEqual([]);
    expect(Object.keys(allOutcomes(report))).toHaveLength(coverageCases().length);
  });
});
