// Proof of the suite: the reference server passes; each fault — a mistake a real
// implementation could make — is caught by its intended check and fails nothing the spec does not
// forbid; every other reasonable choice in the spec's gaps (GAPS.md, ReferenceVariants) passes.
import { describe, expect, test } from 'vitest';
import { listen, type ReferenceVariants } from '../reference/index.ts';
import { exitCodeOf, unjudgedMust, type Report } from '../report/model.ts';
import { runConform } from './run.ts';
import { ALTERNATIVES } from '../testkit/conformance/alternatives.ts';
import { BIG_PLANS, FAULTS, faultServer } from '../testkit/conformance/faults.ts';

const KEY = 'petcert-e2e-key-0123456789';
const plans = BIG_PLANS;
const quick = { budget: 500, maxRuns: 20, seed: 1, plan: 'big', plans } as const;

const failing = (r: Report) =>
  r.checks
    .filter((c) => c.outcome === 'fail')
    .map((c) => c.id)
    .sort();
const outcome = (r: Report, id: string) => r.checks.find((c) => c.id === id)?.outcome;

const server = faultServer(KEY);
const at = server.at;

describe('the reference server', () => {
  test('passes: no check fails, every MUST check ran or says why not', async () => {
    const report = await runConform({ baseUrl: server.baseUrl(), apiKey: KEY, ...quick });
    expect(failing(report)).toEqual([]);
    expect(report.aborted).toBeUndefined();
    expect(exitCodeOf(report)).toBe(0);
    expect(unjudgedMust(report)).toEqual([]); // a PASS: every MUST check judged
    // No 429 against a high-limit key: Retry-After on 429 is quota's to judge, and the report says so.
    const notApplicable = report.checks.filter((c) => c.level === 'MUST' && c.outcome === 'skip');
    expect(notApplicable.map((c) => [c.id, c.skipKind])).toEqual([['ratelimit.retry-after', 'not-applicable']]);
    expect(notApplicable[0]!.skipReason).toMatch(/`petcert quota`/);
    expect(report.createdIds!.length).toBeGreaterThanOrEqual(101);
    expect(JSON.stringify(report)).not.toContain(KEY);
  });

  test('passes under a path prefix (a fault-free route of the same router)', async () => {
    const report = await runConform({ baseUrl: at('none'), apiKey: KEY, ...quick, budget: 200 });
    expect(failing(report)).toEqual([]);
  });
});

// [fault, the check meant to catch it, other checks the same fault legitimately breaks]
const TABLE: Array<[string, string, string[]]> = [
  ['acceptsAnyBearer', 'auth.invalid-credentials', ['auth.before-validation']],
  ['forbiddenForUnknownKey', 'auth.invalid-credentials', ['auth.before-validation']],
  ['validatesBeforeAuth', 'auth.before-validation', []],
  [
    'getRefusesKey',
    'auth.valid-key-accepted',
    ['get.created', 'get.absent', 'get.bad-id', 'auth.scheme-case-insensitive', 'auth.www-authenticate'],
  ],
  ['schemeCaseSensitive', 'auth.scheme-case-insensitive', []],
  ['noWwwAuthenticate', 'auth.www-authenticate', []],
  ['categoryIdAsString', 'create.valid', ['get.created', 'create.int64-exact', 'create.pet-answer']],
  ['latin1Names', 'create.valid', ['get.created']],
  ['defaultsMissingCategory', 'create.missing-field', []],
  ['coercesNumericStrings', 'create.invalid-value', []],
  ['trimsNames', 'create.valid', ['get.created']],
  ['truncatesFloatCategory', 'create.invalid-value', []],
  ['arrayBodyFirstElement', 'create.invalid-body', []],
  ['idsWrapAround', 'create.unique-ids', ['get.created', 'list.same-animals']],
  ['crashesOnNonAscii', 'server.no-5xx', ['create.valid', 'ratelimit.headers-present']],
  ['listItemsWithoutCategory', 'list.schema', []],
  ['listLatin1Names', 'list.same-animals', []],
  ['defaultPageOf50', 'list.default-limit', []],
  ['limitOffByOne', 'list.limit', []],
  ['clampsTo200', 'list.max-items', []],
  ['ignoresStatusFilter', 'list.status-filter', []],
  ['caseInsensitiveStatusFilter', 'list.status-filter', []],
  ['ignoresUnknownStatusFilter', 'list.status-filter', []],
  ['zeroLimitMeansAll', 'list.max-items', []],
  ['refusesPendingFilter', 'list.valid-query', []],
  ['limitOutOfRange422', 'list.limit-out-of-range', []],
  ['getStaleStatus', 'get.created', []],
  ['defaultStatusOnlyOnRead', 'get.created', []],
  ['int32Ids', 'get.absent', []],
  ['badId422', 'get.bad-id', []],
  ['getRemoved410', 'deprecation.still-served', ['get.created', 'get.absent', 'get.bad-id']],
  ['noDeprecationHeaders', 'deprecation.headers', []],
  ['errorWithoutStatus', 'errors.shape', []],
  ['html401', 'content-type.json', ['errors.shape', 'errors.application-json']],
  ['noRateHeadersOn401', 'ratelimit.headers-present', []],
  ['fractionalReset', 'ratelimit.reset-integer', []],
  ['remainingFractional', 'ratelimit.integers', []],
  ['limitOfOtherQuota', 'ratelimit.remaining-le-limit', ['ratelimit.limit-of-plan']],
  ['resetInMillis', 'ratelimit.reset-timestamp', []],
  ['resetAsDelta', 'ratelimit.reset-timestamp', []],
  ['remainingStuck', 'ratelimit.countdown', []],
  ['limitSays100', 'ratelimit.limit-of-plan', ['ratelimit.remaining-le-limit']],
  ['draftRateLimitContradicts', 'ratelimit.draft-agrees', []],
];

describe.concurrent('faults: each caught by its check, and only where the spec is violated', () => {
  test('the table names every fault once and each check it names exists', () => {
    expect(TABLE.map(([f]) => f).sort()).toEqual(Object.keys(FAULTS).sort());
  });
  test.for(TABLE)('%s → %s', async ([fault, intended, also]) => {
    const report = await runConform({ baseUrl: at(fault), apiKey: KEY, ...quick });
    expect(report.aborted).toBeUndefined();
    expect(outcome(report, intended)).toBe('fail');
    expect(failing(report).filter((id) => id !== intended && !also.includes(id))).toEqual([]);
    const check = report.checks.find((c) => c.id === intended)!;
    expect(exitCodeOf(report)).toBe(check.level === 'MUST' ? 1 : 0);
    const failure = check.failures[0]!;
    expect(failure.repro).toMatch(/^curl /);
    expect(JSON.stringify(report)).not.toContain(KEY);
  });
});

// Every alternative of ReferenceVariants, spread over two servers: each is a correct server.
// `unjudged`: MUST rules the variant leaves undecidable. Nothing fails, but the run is INCOMPLETE (exit
// 4, docs/decisions/001): each is named with a fix, never passed.
const VARIANTS: Array<
  [
    string,
    ReferenceVariants,
    { categoryId?: number; should?: string[]; expectSkip?: boolean; skips?: string[]; unjudged?: string[] },
  ]
> = [
  [
    'newest-first, clamp, empty unknown filter, 404 for bad ids, 64-char names, unknown fields refused, problem+json, default available',
    {
      order: 'newest',
      limitOutOfRange: 'clamp',
      unknownStatusFilter: 'empty',
      badPetId: 404,
      maxNameLength: 64,
      unknownFields: 'reject',
      errorContentType: 'application/problem+json',
      defaultStatus: 'available',
      headerQuota: 'minute',
    },
    { should: ['errors.application-json'] },
  ],
  // --category-id fixes the one int64 field: its exactness cannot be judged.
  [
    'shuffled order, day quota in the headers, only categories 7 and 42 (with --category-id 7)',
    { order: 'shuffled', headerQuota: 'day', categories: [7, 42] },
    { categoryId: 7, unjudged: ['create.int64-exact'] },
  ],
  // Every int64 category is refused (400): exactness of int64 was never judged, a skip and not a pass.
  [
    'only categories 7 and 42, found by the generated ids themselves',
    { categories: [7, 42] },
    { skips: ['create.int64-exact'], unjudged: ['create.int64-exact'] },
  ],
  [
    'strict integer forms (1.0 and 1e2 refused as categoryId), unknown fields ignored',
    { integerForms: 'strict', unknownFields: 'ignore' },
    {},
  ],
  [
    'only category 987654321, nothing to discover it from: create checks skip, nothing fails',
    { categories: [987_654_321] },
    {
      expectSkip: true,
      unjudged: [
        'create.valid',
        'create.pet-answer',
        'create.int64-exact',
        'create.unique-ids',
        'list.same-animals',
        'get.created',
      ],
    },
  ],
];

// spec/GAPS.md: answering 400 to bad credentials with a bad body is not one of the gap's choices (§1, §5).
test('the reference variant that validates before authenticating fails auth.before-validation only', async () => {
  const s = await listen({
    keys: { [KEY]: 'big' },
    plans,
    variants: { precedence: 'validation' },
    log: () => undefined,
  });
  try {
    const report = await runConform({ baseUrl: s.baseUrl, apiKey: KEY, ...quick });
    expect(failing(report)).toEqual(['auth.before-validation']);
    expect(exitCodeOf(report)).toBe(1);
  } finally {
    await s.close();
  }
});

// Correct servers with unusual answers (testing/alternatives.ts), served by the shared router.
describe.concurrent('unusual but correct servers pass', () => {
  test.for(Object.keys(ALTERNATIVES))('%s', async (name) => {
    const report = await runConform({ baseUrl: at(name), apiKey: KEY, ...quick });
    expect(report.aborted).toBeUndefined();
    expect(failing(report)).toEqual([]);
    expect(outcome(report, 'create.valid')).toBe('pass');
    if (name === 'uniqueNames')
      expect(JSON.stringify(report.checks.find((c) => c.id === 'create.name-policy')?.observed)).toMatch(
        /refused a valid pet \(409\)/,
      );
    if (name.startsWith('draft')) expect(outcome(report, 'ratelimit.draft-agrees')).toBe('pass'); // judged, not skipped
    if (name === 'draftRateLimitFields') {
      expect(JSON.stringify(report.checks.find((c) => c.id === 'ratelimit.draft-fields')?.observed)).toContain(
        'RateLimit: \\"default\\";r=N;t=N; RateLimit-Policy: \\"default\\";q=N — agrees with X-RateLimit-*',
      );
    }
  });
});

describe.concurrent(
  'gap alternatives: nothing fails; a rule they leave undecidable is INCOMPLETE, never a pass',
  () => {
    test.for(VARIANTS)('%s', async ([, variants, o]) => {
      const s = await listen({ keys: { [KEY]: 'big' }, plans, variants, log: () => undefined });
      try {
        const report = await runConform({
          baseUrl: s.baseUrl,
          apiKey: KEY,
          ...quick,
          ...(o.categoryId !== undefined ? { categoryId: o.categoryId } : {}),
        });
        expect(failing(report)).toEqual((o.should ?? []).sort());
        expect(unjudgedMust(report).map((c) => c.id)).toEqual(o.unjudged ?? []);
        expect(exitCodeOf(report)).toBe(o.unjudged ? 4 : 0);
        for (const id of o.skips ?? [])
          expect(report.checks.find((c) => c.id === id)?.skipReason, id).toMatch(/refused with 400/);
        if (o.expectSkip) expect(report.checks.find((c) => c.id === 'create.valid')?.fix).toMatch(/--category-id/);
        else expect(report.checks.find((c) => c.id === 'create.valid')?.outcome).toBe('pass');
      } finally {
        await s.close();
      }
    });
  },
);
