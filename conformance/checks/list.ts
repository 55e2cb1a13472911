// §4.1 List animals. Size rules are response checks: they judge every list answer of the run,
// whichever check asked. No ordering is assumed (§4.1 rule 3).
import fc from 'fast-check';
import type { Exchange } from '../../core/exchange.ts';
import { LIMIT } from '../../spec/contract.ts';
import { isPets } from '../../spec/validators.ts';
import {
  LIMIT_OUT_OF_RANGE_EXAMPLES,
  UNKNOWN_STATUS_EXAMPLES,
  limitInRange,
  limitOutOfRange,
  unknownStatusFilter,
} from '../arbitraries/query.ts';
import { petStatus } from '../arbitraries/new-pet.ts';
import { listRequest, operationOf, queryOf, usesValidKey, type RunContext } from '../context.ts';
import { differingPetFields, itemIdTextsOf } from '../json.ts';
import { bodyOf, expectStatus } from './judge.ts';
import { CATEGORY_FIX } from '../create-pet.ts';
import { fail, observation, type Check, type ResponseCheck, type ScenarioCheck } from './types.ts';

const okList = (ex: Exchange, ctx: RunContext): boolean =>
  operationOf(ctx.baseUrl, ex.request) === 'listPets' &&
  usesValidKey(ex.request, ctx.apiKey) &&
  ex.response.status === 200;

const items = (ex: Exchange): unknown[] | undefined => {
  const body = bodyOf(ex);
  return Array.isArray(body) ? body : undefined;
};

const inRangeLimit = (text: string | null): number | undefined => {
  if (text === null || !/^[0-9]{1,3}$/.test(text)) return undefined;
  const n = Number(text);
  return n >= LIMIT.min && n <= LIMIT.max ? n : undefined;
};

/** GAPS.md: `limit` given twice may be read as either value, so the larger one bounds the page. */
const limitBound = (ex: Exchange): number | undefined => {
  const values = queryOf(ex.request).getAll('limit').map(inRangeLimit);
  return values.length && values.every((v) => v !== undefined) ? Math.max(...(values as number[])) : undefined;
};

function sizeCheck(
  id: string,
  title: string,
  specRef: string,
  bound: (ex: Exchange) => number | undefined,
): ResponseCheck {
  return {
    kind: 'response',
    id,
    title,
    level: 'MUST',
    specRef,
    applies: (ex, ctx) => okList(ex, ctx) && bound(ex) !== undefined,
    judge(ex) {
      const list = items(ex);
      const max = bound(ex)!;
      if (list && list.length > max)
        return fail(`${list.length} animals returned, at most ${max} allowed`, ex, {
          expected: `≤ ${max}`,
          received: list.length,
        });
      return undefined;
    },
  };
}

const LIMIT_RANGE = `${LIMIT.min}–${LIMIT.max}`;

type ValidQuery = { limit: number | undefined; status: string | undefined };

function orderLabel(ids: number[]): string {
  if (ids.length < 2) return 'too short to tell';
  if (ids.every((v, i) => i === 0 || v > ids[i - 1]!)) return 'ascending id';
  if (ids.every((v, i) => i === 0 || v < ids[i - 1]!)) return 'descending id';
  return 'other';
}

const ordering = observation('list.ordering', 'Order of GET /pets', '§4.1 rule 3');
const shortPages = observation('list.short-pages', 'Fewer animals than asked while more exist', '§4.1 rule 2');

export const limitOutOfRangeCheck: ScenarioCheck<string | readonly string[]> = {
  kind: 'scenario',
  id: 'list.limit-out-of-range',
  title: `limit outside ${LIMIT_RANGE} or not an integer: 400 or a clamped 200`,
  level: 'MUST',
  specRef: '§4.1, §8.4',
  weight: 1.5,
  cost: 1,
  arbitrary: () => limitOutOfRange(),
  examples: () => [...LIMIT_OUT_OF_RANGE_EXAMPLES],
  // An array is the parameter given several times (GAPS.md: 400, or 200 using either value).
  async run(input, ctx) {
    const limit = (typeof input === 'string' ? [input] : input).map((v) => `limit=${encodeURIComponent(v)}`).join('&');
    const exchange = await ctx.send(listRequest(ctx, limit));
    const status = exchange.response.status;
    if (status === 200 || status === 400)
      ctx.observe(limitOutOfRangeCheck, status === 200 ? 'clamped (200)' : 'refused (400)');
    return expectStatus(exchange, [400, 200], `GET /pets?${limit}`);
  },
};

export const unknownStatus: ScenarioCheck<string> = {
  kind: 'scenario',
  id: 'list.unknown-status',
  title: 'A status filter outside PetStatus: what the server does (400 or 200)',
  level: 'OBSERVE',
  specRef: '§4.1 (not shown)',
  weight: 0.5,
  cost: 1,
  arbitrary: () => unknownStatusFilter(),
  examples: () => [...UNKNOWN_STATUS_EXAMPLES],
  async run(status, ctx) {
    const exchange = await ctx.send(listRequest(ctx, `status=${encodeURIComponent(status)}`));
    const n = items(exchange)?.length;
    ctx.observe(
      unknownStatus,
      exchange.response.status === 200
        ? `200 with ${n === 0 ? 'an empty list' : 'animals'}`
        : String(exchange.response.status),
    );
    return undefined;
  },
};

export const validQuery: ScenarioCheck<ValidQuery> = {
  kind: 'scenario',
  id: 'list.valid-query',
  title: `GET /pets with a limit in ${LIMIT_RANGE} and/or a PetStatus filter answers 200`,
  level: 'MUST',
  specRef: '§4.1',
  weight: 3,
  cost: 1,
  arbitrary: () =>
    fc.record({
      limit: fc.option(limitInRange(), { nil: undefined }),
      status: fc.option(petStatus(), { nil: undefined }),
    }) as fc.Arbitrary<ValidQuery>,
  // The default page, the largest page, and a limit together with a filter.
  examples: () => [
    { limit: undefined, status: undefined },
    { limit: LIMIT.max, status: undefined },
    { limit: 5, status: 'sold' },
  ],
  async run(q, ctx) {
    const query = new URLSearchParams();
    if (q.limit !== undefined) query.set('limit', String(q.limit));
    if (q.status !== undefined) query.set('status', q.status);
    const exchange = await ctx.send(listRequest(ctx, query.toString()));
    const wrong = expectStatus(exchange, [200], `GET /pets?${query}`);
    if (wrong) return wrong;
    const list = items(exchange);
    if (list && q.status === undefined)
      ctx.observe(ordering, orderLabel(list.map((p) => Number((p as { id?: unknown }).id))));
    const asked = q.limit ?? LIMIT.default;
    const mine = ctx.created.filter((c) => q.status === undefined || c.pet['status'] === q.status).length;
    if (list && list.length < asked && mine > list.length)
      ctx.observe(shortPages, `fewer than asked while more exist (${list.length} of ${asked})`);
    return undefined;
  },
};

export const listChecks: Check[] = [
  {
    kind: 'response',
    id: 'list.schema',
    title: 'A 200 list body is a JSON array of Pets',
    level: 'MUST',
    specRef: '§4.1, §2.4',
    applies: okList,
    judge: (ex) =>
      isPets(bodyOf(ex))
        ? undefined
        : fail('the 200 body of GET /pets is not an array of Pets', ex, { received: ex.response.body.slice(0, 500) }),
  },
  sizeCheck('list.default-limit', `Without limit, at most ${LIMIT.default} animals`, '§4.1 rule 2', (ex) =>
    queryOf(ex.request).has('limit') ? undefined : LIMIT.default,
  ),
  sizeCheck('list.limit', 'With limit n, at most n animals', '§4.1 rule 2', limitBound),
  sizeCheck(
    'list.max-items',
    `Never more than ${LIMIT.max} animals, whatever limit says`,
    '§4.1, §8.4',
    () => LIMIT.max,
  ),
  {
    kind: 'response',
    id: 'list.status-filter',
    title: 'With a status filter, every animal returned has exactly that status (for a value outside PetStatus: none)',
    level: 'MUST',
    specRef: '§4.1 rule 1, §2.3',
    // Any value counts (GAPS.md: an unknown or case-variant filter gets 400 or an empty 200, never
    // the animals it does not name), except an empty one, which many frameworks read as "not given".
    applies: (ex, ctx) => okList(ex, ctx) && (queryOf(ex.request).get('status') ?? '') !== '',
    judge(ex) {
      const wanted = queryOf(ex.request).get('status');
      const other = (items(ex) ?? []).find((p) => (p as { status?: unknown })?.status !== wanted);
      return other === undefined
        ? undefined
        : fail(
            `status=${wanted} returned an animal with status ${JSON.stringify((other as { status?: unknown }).status)}`,
            ex,
            { received: other },
          );
    },
  },
  {
    kind: 'response',
    id: 'list.same-animals',
    title: 'An animal in a list is the animal creation returned (same name, categoryId and status)',
    level: 'MUST',
    specRef: '§4.1, §2.4, §2.1',
    applies: (ex, ctx) => okList(ex, ctx) && ctx.created.length > 0,
    unseen: { skip: 'no list was read after a pet was created', fix: CATEGORY_FIX },
    judge(ex, ctx) {
      const list = items(ex);
      const ids = itemIdTextsOf(ex.response.body);
      if (!list || !ids) return undefined;
      const created = new Map(ctx.created.map((c) => [c.idText, c.pet]));
      for (const [i, id] of ids.entries()) {
        const pet = id === undefined ? undefined : created.get(id);
        const item = list[i] as Record<string, unknown> | undefined;
        if (!pet || !item) continue;
        const differs = differingPetFields(item, pet);
        if (differs.length)
          return fail(`animal ${id} in the list differs from the one creation returned (${differs.join(', ')})`, ex, {
            expected: pet,
            received: item,
          });
      }
      return undefined;
    },
  },
  validQuery,
  limitOutOfRangeCheck,
  unknownStatus,
  ordering,
  shortPages,
];
