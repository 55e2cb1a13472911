// §4.3 Get an animal (deprecated, still served until 2030-12-05).
import fc from 'fast-check';
import { GET_PET_DEPRECATION } from '../../spec/contract.ts';
import { isPet } from '../../spec/validators.ts';
import { parseHttpDate } from '../../spec/ratelimit.ts';
import { ABSENT_ID_EXAMPLES, BAD_ID_EXAMPLES, absentPetId, badPetId } from '../arbitraries/query.ts';
import { getRequest, operationOf, usesValidKey } from '../context.ts';
import { CATEGORY_FIX } from '../create-pet.ts';
import { differingPetFields, idTextOf, integerTextOf } from '../json.ts';
import { bodyOf, expectStatus } from './judge.ts';
import { fail, type Check, type ScenarioCheck } from './types.ts';

/** §4.3 names a day, not a time zone: any instant that is 5 Dec 2030 somewhere (UTC−12 … UTC+14). */
function onRemovalDay(ms: number): boolean {
  const start = Date.parse(`${GET_PET_DEPRECATION.removalDate}T00:00:00Z`);
  const hour = 3_600_000;
  return ms >= start - 14 * hour && ms < start + 24 * hour + 12 * hour;
}

export const badId: ScenarioCheck<string> = {
  kind: 'scenario',
  id: 'get.bad-id',
  title: 'A petId that is not an int64: 400 or 404',
  level: 'MUST',
  specRef: '§4.3',
  weight: 1.5,
  cost: 1,
  arbitrary: () => badPetId(),
  examples: () => [...BAD_ID_EXAMPLES],
  async run(id, ctx) {
    const exchange = await ctx.send(getRequest(ctx, encodeURIComponent(id)));
    const status = exchange.response.status;
    if (status === 400 || status === 404) ctx.observe(badId, `answered ${status}`);
    return expectStatus(exchange, [400, 404], `GET /pets/${id}`);
  },
};

export const absent: ScenarioCheck<string> = {
  kind: 'scenario',
  id: 'get.absent',
  title: 'An id no pet has: 404',
  level: 'MUST',
  specRef: '§4.3, §7',
  weight: 1.5,
  cost: 1,
  arbitrary: () => absentPetId(),
  examples: () => [...ABSENT_ID_EXAMPLES],
  async run(id, ctx) {
    if (ctx.created.some((c) => c.idText === id)) return undefined;
    const exchange = await ctx.send(getRequest(ctx, id));
    // A server that happens to have this id answers it; that is not a fault.
    if (exchange.response.status === 200 && idTextOf(exchange.response.body) === id) return undefined;
    return expectStatus(exchange, [404], `GET /pets/${id} (no such pet)`);
  },
};

export const getChecks: Check[] = [
  {
    kind: 'scenario',
    id: 'get.created',
    title: 'Every created pet is readable by GET /pets/{petId} and equal to what creation returned',
    level: 'MUST',
    specRef: '§4.3, §2.1',
    weight: 3,
    cost: 1,
    skipIf: (ctx) => (ctx.created.length === 0 ? { skip: 'no pet was created', fix: CATEGORY_FIX } : undefined),
    arbitrary: () => fc.nat({ max: 100_000 }),
    // A pet created without status first (a default applied only on read shows there), then the
    // first and the newest.
    examples: (ctx) =>
      [ctx.created.findIndex((c) => c.pet.status === undefined), 0, ctx.created.length - 1].filter((i) => i >= 0),
    async run(index, ctx) {
      const created = ctx.created[index % ctx.created.length]!;
      const exchange = await ctx.send(getRequest(ctx, created.idText));
      const wrong = expectStatus(exchange, [200], `GET /pets/${created.idText} of a pet created in this run`);
      if (wrong) return wrong;
      const body = bodyOf(exchange);
      if (!isPet(body))
        return fail('the 200 body is not a Pet', exchange, { received: exchange.response.body.slice(0, 500) });
      const differs = differingPetFields(body as Record<string, unknown>, created.pet);
      if (idTextOf(exchange.response.body) !== created.idText) differs.unshift('id');
      // int64 beyond 2^53 (§2.2): JSON.parse rounds both sides alike, so compare the text as written.
      if (
        !differs.includes('categoryId') &&
        integerTextOf(exchange.response.body, 'categoryId') !==
          integerTextOf(created.exchange.response.body, 'categoryId')
      )
        differs.push('categoryId');
      if (differs.length)
        return fail(`GET returns a different pet than creation did (${differs.join(', ')})`, exchange, {
          expected: created.pet,
          received: body,
        });
      return undefined;
    },
  },
  absent,
  badId,
  {
    kind: 'response',
    id: 'deprecation.still-served',
    title: `GET /pets/{petId} is still served (removal ${GET_PET_DEPRECATION.removalDate})`,
    level: 'MUST',
    specRef: '§4.3 rule 1, §9',
    applies: (ex, ctx) => operationOf(ctx.baseUrl, ex.request) === 'getPet' && usesValidKey(ex.request, ctx.apiKey),
    judge: (ex) =>
      [301, 302, 303, 307, 308, 405, 410, 501].includes(ex.response.status)
        ? fail(
            `GET /pets/{petId} answered ${ex.response.status}: the operation is only deprecated until ${GET_PET_DEPRECATION.removalDate}`,
            ex,
          )
        : undefined,
  },
  {
    kind: 'response',
    id: 'deprecation.headers',
    title: 'GET /pets/{petId} announces its deprecation: Deprecation and Sunset headers',
    level: 'SHOULD',
    specRef: 'RFC 9745, RFC 8594; §4.3 rule 1',
    applies: (ex, ctx) =>
      operationOf(ctx.baseUrl, ex.request) === 'getPet' &&
      usesValidKey(ex.request, ctx.apiKey) &&
      ex.response.status === 200,
    judge(ex) {
      const h = ex.response.headers;
      if (h['deprecation'] === undefined) return fail('no Deprecation header (RFC 9745)', ex);
      const sunset = parseHttpDate(h['sunset']);
      if (sunset === undefined)
        return fail(`no valid Sunset header (RFC 8594): ${JSON.stringify(h['sunset'] ?? null)}`, ex);
      if (!onRemovalDay(sunset))
        return fail(`Sunset ${h['sunset']} is not the removal date ${GET_PET_DEPRECATION.removalDate}`, ex);
      return undefined;
    },
  },
];
