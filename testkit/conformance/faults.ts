// Response-level faults for the proof tests: each one a mistake a real implementation could make,
// built as a wrapper around the reference handler. One server serves them all: the fault is chosen by
// a path prefix (http://127.0.0.1:PORT/<fault>/v1), which also proves base URLs with a prefix work.
import { afterAll, beforeAll } from 'vitest';
import { listen, type Handle, type RunningServer } from '../../reference/index.ts';
import { ALTERNATIVES, draftRateLimitFields } from './alternatives.ts';
import { coverageFaults } from './coverage-faults.ts';
import {
  bodyText,
  error,
  isCreate,
  isGet,
  isList,
  json,
  mapBody,
  mapHeader,
  mapRequestBody,
  parse,
  pathOf,
  query,
  withQuery,
  type Fault,
} from './wraps.ts';

export type { Fault } from './wraps.ts';

const latin1Created: string[] = [];

export const FAULTS: Record<string, Fault> = {
  // §5
  acceptsAnyBearer: (h, req) =>
    h(
      /^Bearer \S+$/.test(req.headers['authorization'] ?? '')
        ? { ...req, headers: { ...req.headers, authorization: `Bearer ${VALID.key}` } }
        : req,
    ),
  forbiddenForUnknownKey: async (h, req) => {
    const res = await h(req);
    return res.status === 401 && /^Bearer \S/.test(req.headers['authorization'] ?? '') ? error(res, 403) : res;
  },
  validatesBeforeAuth: async (h, req) => {
    const res = await h(req);
    if (res.status !== 401 || !isCreate(req)) return res;
    const asValid = await h({ ...req, headers: { ...req.headers, authorization: `Bearer ${VALID.key}` } });
    return asValid.status === 400 ? asValid : res;
  },
  getRefusesKey: async (h, req) => (isGet(req) ? error(await h(req), 401) : h(req)),
  schemeCaseSensitive: async (h, req) =>
    /^Bearer /.test(req.headers['authorization'] ?? '') ? h(req) : error(await h({ ...req, headers: {} }), 401),
  noWwwAuthenticate: async (h, req) => mapHeader(await h(req), 'www-authenticate', () => undefined),
  // §4.2
  categoryIdAsString: async (h, req) => {
    const res = await h(req);
    return isCreate(req) && res.status === 201
      ? mapBody(res, (p) => ({ ...p, categoryId: String(p.categoryId) }))
      : res;
  },
  latin1Names: async (h, req) => {
    const res = await h(req);
    return isCreate(req) && res.status === 201
      ? mapBody(res, (p) => ({ ...p, name: Buffer.from(p.name, 'utf8').toString('latin1') }))
      : res;
  },
  defaultsMissingCategory: (h, req) =>
    h(
      isCreate(req)
        ? mapRequestBody(req, (v) =>
            v && typeof v === 'object' && !Array.isArray(v) && !('categoryId' in v) ? { ...v, categoryId: 0 } : v,
          )
        : req,
    ),
  coercesNumericStrings: (h, req) =>
    h(
      isCreate(req)
        ? mapRequestBody(req, (v) =>
            v && typeof v.categoryId === 'string' && /^-?\d+$/.test(v.categoryId)
              ? { ...v, categoryId: Number(v.categoryId) }
              : v,
          )
        : req,
    ),
  trimsNames: async (h, req) => {
    const res = await h(req);
    return isCreate(req) && res.status === 201 ? mapBody(res, (p) => ({ ...p, name: p.name.trim() })) : res;
  },
  truncatesFloatCategory: (h, req) =>
    h(
      isCreate(req)
        ? mapRequestBody(req, (v) =>
            v && typeof v.categoryId === 'number' ? { ...v, categoryId: Math.trunc(v.categoryId) } : v,
          )
        : req,
    ),
  arrayBodyFirstElement: (h, req) =>
    h(isCreate(req) ? mapRequestBody(req, (v) => (Array.isArray(v) && v.length ? v[0] : v)) : req),
  idsWrapAround: async (h, req) => {
    const res = await h(req);
    return isCreate(req) && res.status === 201 ? mapBody(res, (p) => ({ ...p, id: p.id % 7 })) : res;
  },
  crashesOnNonAscii: async (h, req) =>
    isCreate(req) && /[^\x00-\x7f]/.test(bodyText(req))
      ? { status: 500, headers: { 'content-type': 'text/plain' }, body: 'Internal Server Error' }
      : h(req),
  // §4.1
  listItemsWithoutCategory: async (h, req) => {
    const res = await h(req);
    return isList(req) && res.status === 200 ? mapBody(res, (a) => a.map(({ categoryId: _, ...p }: any) => p)) : res;
  },
  // Newest first (a gap choice; on the shared test server the oldest pets are other runs'), and the
  // list's serialiser mangles non-ASCII names that creation and GET return intact.
  listLatin1Names: async (h, req) => {
    const res = await h(req);
    if (isCreate(req) && res.status === 201) latin1Created.unshift(String(parse(res.body).id));
    if (!isList(req) || res.status !== 200) return res;
    const q = query(req);
    const pets: unknown[] = [];
    for (const id of latin1Created.slice(0, 300)) {
      const p = parse((await h({ ...req, path: `/v1/pets/${id}` })).body);
      if (!q.get('status') || p.status === q.get('status'))
        pets.push({ ...p, name: Buffer.from(p.name, 'utf8').toString('latin1') });
    }
    return mapBody(res, () => pets.slice(0, Math.min(100, Number(q.get('limit') ?? 20) || 20)));
  },
  defaultPageOf50: (h, req) =>
    isList(req) && !query(req).has('limit')
      ? h(withQuery(req, new URLSearchParams([...query(req), ['limit', '50']])))
      : h(req),
  limitOffByOne: (h, req) => {
    const q = query(req);
    const n = Number(q.get('limit'));
    if (isList(req) && Number.isInteger(n) && n >= 1 && n < 100) q.set('limit', String(n + 1));
    return h(isList(req) ? withQuery(req, q) : req);
  },
  clampsTo200: async (h, req) => {
    const q = query(req);
    const n = Number(q.get('limit'));
    if (!isList(req) || !(n > 100)) return h(req);
    q.set('limit', '100');
    const res = await h(withQuery(req, q));
    return res.status === 200 ? mapBody(res, (a) => [...a, ...a].slice(0, Math.min(200, n))) : res;
  },
  ignoresStatusFilter: (h, req) => {
    const q = query(req);
    q.delete('status');
    return h(isList(req) ? withQuery(req, q) : req);
  },
  caseInsensitiveStatusFilter: (h, req) => {
    const q = query(req);
    const status = q.get('status')?.toLowerCase();
    if (isList(req) && status && ['available', 'pending', 'sold'].includes(status)) q.set('status', status);
    return h(isList(req) ? withQuery(req, q) : req);
  },
  ignoresUnknownStatusFilter: (h, req) => {
    const q = query(req);
    if (isList(req) && q.has('status') && !['available', 'pending', 'sold'].includes(q.get('status')!))
      q.delete('status');
    return h(isList(req) ? withQuery(req, q) : req);
  },
  zeroLimitMeansAll: async (h, req) => {
    if (!isList(req) || query(req).get('limit') !== '0') return h(req);
    // Every pet the store has (the reference pages by 100: the union of four pages, by id).
    const all = new Map<number, unknown>();
    for (const q of [
      { limit: '100' },
      ...['available', 'pending', 'sold'].map((status) => ({ status, limit: '100' })),
    ]) {
      for (const p of parse((await h(withQuery(req, new URLSearchParams(q)))).body) ?? []) all.set(p.id, p);
    }
    return mapBody(await h(withQuery(req, new URLSearchParams({ limit: '1' }))), () => [...all.values()]);
  },
  refusesPendingFilter: async (h, req) =>
    isList(req) && query(req).get('status') === 'pending' ? error(await h(req), 400) : h(req),
  limitOutOfRange422: async (h, req) => {
    const res = await h(req);
    return isList(req) && res.status === 400 ? error(res, 422) : res;
  },
  // §4.3
  getStaleStatus: async (h, req) => {
    const res = await h(req);
    return isGet(req) && res.status === 200 ? mapBody(res, (p) => ({ ...p, status: 'available' })) : res;
  },
  defaultStatusOnlyOnRead: async (h, req) => {
    const res = await h(req);
    return isGet(req) && res.status === 200 ? mapBody(res, (p) => ({ status: 'available', ...p })) : res;
  },
  int32Ids: async (h, req) => {
    const id = pathOf(req).split('/').pop()!;
    return isGet(req) && /^\d+$/.test(id) && BigInt(id) > 2n ** 31n - 1n ? error(await h(req), 400) : h(req);
  },
  badId422: async (h, req) => {
    const res = await h(req);
    return isGet(req) && res.status === 400 ? error(res, 422) : res;
  },
  getRemoved410: async (h, req) =>
    isGet(req) && req.headers['authorization'] === `Bearer ${VALID.key}` ? error(await h(req), 410) : h(req),
  noDeprecationHeaders: async (h, req) =>
    mapHeader(
      mapHeader(await h(req), 'deprecation', () => undefined),
      'sunset',
      () => undefined,
    ),
  // §7, §1
  errorWithoutStatus: async (h, req) => {
    const res = await h(req);
    return res.status === 400 ? mapBody(res, (e) => ({ error: e?.message ?? 'bad request' })) : res;
  },
  html401: async (h, req) => {
    const res = await h(req);
    return res.status === 401
      ? { ...res, headers: { ...res.headers, 'content-type': 'text/html' }, body: '<h1>401 Unauthorized</h1>' }
      : res;
  },
  // §8.2
  noRateHeadersOn401: async (h, req) => {
    const res = await h(req);
    if (res.status !== 401) return res;
    const headers = Object.fromEntries(Object.entries(res.headers).filter(([k]) => !k.startsWith('x-ratelimit-')));
    return { ...res, headers };
  },
  /** A Unix timestamp with a fraction (§8.2 says "Unix timestamp": a SHOULD finding, not a MUST one). */
  fractionalReset: async (h, req) => mapHeader(await h(req), 'x-ratelimit-reset', (v) => `${v}.000`),
  remainingFractional: async (h, req) => mapHeader(await h(req), 'x-ratelimit-remaining', (v) => `${v}.5`),
  limitOfOtherQuota: async (h, req) =>
    mapHeader(await h(req), 'x-ratelimit-limit', (v) => String(Math.floor(Number(v) / 1000))),
  resetInMillis: async (h, req) => mapHeader(await h(req), 'x-ratelimit-reset', (v) => String(Number(v) * 1000)),
  resetAsDelta: async (h, req) =>
    mapHeader(await h(req), 'x-ratelimit-reset', (v) => String(Math.max(1, Number(v) - Math.floor(Date.now() / 1000)))),
  remainingStuck: async (h, req) => {
    const res = await h(req);
    return mapHeader(res, 'x-ratelimit-remaining', () => String(Number(res.headers['x-ratelimit-limit']) - 1));
  },
  /** Whatever the plan, X-RateLimit-Limit says 100 (the plan's figures are 60/min and 1,000/day for Free). */
  limitSays100: async (h, req) => mapHeader(await h(req), 'x-ratelimit-limit', () => '100'),
  /** RateLimit's remaining is 5 more than X-RateLimit-Remaining: two answers to one question. */
  draftRateLimitContradicts: draftRateLimitFields(5),
};

/** The valid key of the shared fault server (set by the test before it starts). */
export const VALID = { key: '' };

/** One fault per coverage family (coverage-faults.ts), routed like the others. */
export const COVERAGE_FAULTS = coverageFaults(() => VALID.key);

/** Routes /<fault>/v1/... to the reference handler with that fault (or that correct alternative); /v1/... is the correct server. */
export function faultRouter(handle: Handle): Handle {
  return (req) => {
    const m = /^\/([A-Za-z0-9]+)(\/v1(?:\/.*|\?.*)?)$/.exec(req.path);
    if (!m) return handle(req);
    const fault = FAULTS[m[1]!] ?? COVERAGE_FAULTS[m[1]!] ?? ALTERNATIVES[m[1]!];
    const inner = { ...req, path: m[2]! };
    return fault ? fault(handle, inner) : handle(inner);
  };
}

/** The proof tests' plan: figures no run can spend, so only the fault under test can fail a check. */
export const BIG_PLANS = {
  windows: { minuteSeconds: 60, daySeconds: 86_400 },
  plans: { big: { perMinute: 10_000_000, perDay: 100_000_000 } },
};

export interface FaultServer {
  /** The correct server's base URL. */
  baseUrl(): string;
  /** The base URL at which the named fault (or route) answers. */
  at(route: string): string;
}

/** One fault-routing reference server for a test file (started before its tests, closed after). */
export function faultServer(key: string): FaultServer {
  let server: RunningServer;
  beforeAll(async () => {
    VALID.key = key;
    server = await listen({ keys: { [key]: 'big' }, plans: BIG_PLANS, wrap: faultRouter, log: () => undefined });
  });
  afterAll(() => server.close());
  return { baseUrl: () => server.baseUrl, at: (route) => server.baseUrl.replace(/\/v1$/, `/${route}/v1`) };
}
