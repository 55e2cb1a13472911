// Correct servers that made unusual choices — each one a checker could plausibly fail, without the
// specification forbidding it. Routed like the faults (/<name>/v1); the proof test
// expects every one of them to pass.
import type { AppResponse } from '../../reference/index.ts';
import { RATE_LIMIT_HEADERS } from '../../spec/contract.ts';
import { INT64 } from '../../spec/int64.ts';
import {
  bodyText,
  error,
  isCreate,
  isGet,
  isList,
  parse,
  mapBody,
  mapHeader,
  pathOf,
  query,
  withQuery,
  type Fault,
} from './wraps.ts';

const SKEW_SECONDS = 3 * 3600;

const mapIds = (res: AppResponse, f: (id: bigint) => string): AppResponse => ({
  ...res,
  body: res.body.replace(/"id":(-?\d+)(?=[,}])/g, (_, d: string) => `"id":${f(BigInt(d))}`),
});
const compose = (...wraps: Fault[]): Fault =>
  wraps.reduce((outer, inner) => (h, req) => outer((r) => inner(h, r), req));

const extraFields: Fault = async (h, req) => {
  const res = await h(req);
  const pet = (p: any) =>
    p && typeof p === 'object'
      ? { ...p, createdAt: '2026-01-01T00:00:00Z', tags: [], _links: { self: { href: '/v1/pets/1' } } }
      : p;
  if (res.status >= 400) return mapBody(res, (e) => ({ ...e, traceId: 'petcert-alt', details: [{ field: 'name' }] }));
  return mapBody(res, (v) => (Array.isArray(v) ? v.map(pet) : pet(v)));
};
const charsetParam: Fault = async (h, req) =>
  mapHeader(await h(req), 'content-type', (v) => (v ? 'Application/JSON; Charset=UTF-8' : undefined));
const shortPages: Fault = async (h, req) => {
  const res = await h(req);
  return isList(req) && res.status === 200 ? mapBody(res, (a) => a.slice(0, 7)) : res;
};
const connectionClose: Fault = async (h, req) => mapHeader(await h(req), 'connection', () => 'close');
/** Its clock runs 3 h ahead, and its Date and Reset agree with each other (principle 3). */
const skewedClock: Fault = async (h, req) => {
  const res = await h(req);
  const date = new Date(
    Date.parse(res.headers['date'] ?? new Date().toUTCString()) + SKEW_SECONDS * 1000,
  ).toUTCString();
  return mapHeader(
    mapHeader(res, 'date', () => date),
    RATE_LIMIT_HEADERS.reset,
    (v) => String(Number(v) + SKEW_SECONDS),
  );
};

/**
 * The IETF draft fields beside X-RateLimit-* (draft-ietf-httpapi-ratelimit-headers 08+), saying the same:
 * the quota as the policy, Remaining as `r`, Reset − Date as `t`. `skew` makes them contradict.
 */
export function draftRateLimitFields(skew = 0): Fault {
  return async (h, req) => {
    const res = await h(req);
    const limit = res.headers[RATE_LIMIT_HEADERS.limit];
    const remaining = Number(res.headers[RATE_LIMIT_HEADERS.remaining]);
    const untilReset =
      Number(res.headers[RATE_LIMIT_HEADERS.reset]) - Math.floor(Date.parse(res.headers['date'] ?? '') / 1000);
    if (limit === undefined || !Number.isFinite(remaining) || !Number.isFinite(untilReset)) return res;
    return {
      ...res,
      headers: {
        ...res.headers,
        'ratelimit-policy': `"default";q=${limit}`,
        ratelimit: `"default";r=${remaining + skew};t=${untilReset}`,
      },
    };
  };
}

/**
 * The draft fields speak of the day policy while X-RateLimit-* report the minute quota (GAPS.md: either
 * quota may be reported): RateLimit-Policy lists both, RateLimit carries the day item only. Two true
 * statements about two quotas, no contradiction. The test plans' day is ten times their minute.
 */
const draftFieldsOfTheOtherQuota: Fault = async (h, req) => {
  const res = await h(req);
  const minute = Number(res.headers[RATE_LIMIT_HEADERS.limit]);
  const used = minute - Number(res.headers[RATE_LIMIT_HEADERS.remaining]);
  const nowS = Math.floor(Date.parse(res.headers['date'] ?? '') / 1000);
  if (!Number.isFinite(minute) || !Number.isFinite(used) || !Number.isFinite(nowS)) return res;
  const toDayEnd = 86_400 - (nowS % 86_400);
  return {
    ...res,
    headers: {
      ...res.headers,
      'ratelimit-policy': `"minute";q=${minute};w=60, "day";q=${minute * 10};w=86400`,
      ratelimit: `"day";r=${minute * 10 - used};t=${toDayEnd}`,
    },
  };
};

/** Names are unique on this server: a name already taken is refused with 409 (a content rule §2.6 leaves open). */
function uniqueNames(): Fault {
  const taken = new Set<string>();
  return async (h, req) => {
    const name: unknown = isCreate(req) ? parse(bodyText(req))?.name : undefined;
    // The inner server answers a broken body with 400 (counting it against the quota, as a refusal
    // would be); the wrap turns that into the 409 a unique-name server sends.
    if (typeof name === 'string' && taken.has(name)) return error(await h({ ...req, body: '{' }), 409);
    const res = await h(req);
    if (res.status === 201 && typeof name === 'string') taken.add(name);
    return res;
  };
}

export const ALTERNATIVES: Record<string, Fault> = {
  /** JSON Schema counts 1.0 as an integer: ids written `7.0`; the path still takes `7`. */
  idsWrittenAsDecimals: async (h, req) => mapIds(await h(req), (id) => `${id}.0`),
  /** Ids beyond 2^53, counting down from the int64 maximum. */
  idsNearInt64Max: async (h, req) => {
    const id = isGet(req) ? pathOf(req).split('/').pop()! : '';
    const inner = /^\d{1,19}$/.test(id) && BigInt(id) <= INT64.max ? String(INT64.max - BigInt(id)) : id;
    return mapIds(await h(isGet(req) ? { ...req, path: `/v1/pets/${inner}` } : req), (n) => String(INT64.max - n));
  },
  /** GAPS.md: the rate-limit values on a 401 are OBSERVE (an unknown key has no plan). */
  anonymous401Headers: async (h, req) => {
    const res = await h(req);
    if (res.status !== 401) return res;
    return {
      ...res,
      headers: {
        ...res.headers,
        [RATE_LIMIT_HEADERS.limit]: '0',
        [RATE_LIMIT_HEADERS.remaining]: '0',
        [RATE_LIMIT_HEADERS.reset]: '0',
      },
    };
  },
  /** Both at once: the draft fields describe the anonymous caller's bucket, X-RateLimit-* on a 401 say 0 (values on a 401 are OBSERVE). */
  anonymous401HeadersWithDraftFields: (h, req) =>
    ALTERNATIVES['anonymous401Headers']!((r) => draftRateLimitFields()(h, r), req),
  /**
   * Keys are issued in lower case and compared case-insensitively (UUID keys read as UUIDs are: RFC 9562
   * §4 reads hex digits in either case). §5 leaves the keys' form open: `Bearer <KEY IN UPPER CASE>` is then the same key.
   */
  caseInsensitiveKeys: async (h, req) => {
    const token = /^Bearer (\S+)$/i.exec(req.headers['authorization'] ?? '')?.[1];
    const res = await h(req);
    return res.status === 401 && token !== undefined && token !== token.toLowerCase()
      ? h({ ...req, headers: { ...req.headers, authorization: `Bearer ${token.toLowerCase()}` } })
      : res;
  },
  /** Sunset at midnight of 5 Dec 2030 in UTC+1: the removal day, in another time zone. */
  sunsetLocalMidnight: async (h, req) =>
    mapHeader(await h(req), 'sunset', (v) => (v ? 'Wed, 04 Dec 2030 23:00:00 GMT' : undefined)),
  /** 400 for limit below 1, but 101+ clamped to 100: each answer is one of the accepted two. */
  mixedLimitPolicy: async (h, req) => {
    const limit = query(req).get('limit');
    if (!isList(req) || limit === null || !/^-?\d+$/.test(limit)) return h(req);
    if (Number(limit) < 1) return error(await h(req), 400);
    const q = query(req);
    if (Number(limit) > 100) q.set('limit', '100');
    return h(withQuery(req, q));
  },
  uniqueNames: uniqueNames(),
  draftRateLimitFields: draftRateLimitFields(),
  draftFieldsOfTheOtherQuota,
  unusualButCorrect: compose(extraFields, charsetParam, shortPages, connectionClose, skewedClock),
};
