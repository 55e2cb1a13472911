// One fault per coverage family (conformance/coverage/derive.ts FAMILIES): each a mistake that random
// exploration finds only when the seed and the budget happen to draw it, and the coverage phase finds
// at every seed. Routed like the other faults (/<name>/v1, faults.ts faultRouter).
import { fieldsOf } from '../../conformance/coverage/schema.ts';
import type { AppRequest, AppResponse } from '../../reference/index.ts';
import {
  bodyText,
  isCreate,
  isGet,
  isList,
  mapBody,
  mapRequestBody,
  parse,
  pathOf,
  query,
  withQuery,
  type Fault,
} from './wraps.ts';

const NULL_NAME = 'petcert-fault-stored-null';

/** The server: `{"name": null, "categoryId": 1}` is created (201) and its name stored as null. */
const storesNullName: Fault = async (h, req) => {
  const nulled = isCreate(req) && parse(bodyText(req))?.name === null;
  const res = await h(nulled ? mapRequestBody(req, (v) => ({ ...v, name: NULL_NAME })) : req);
  const unmask = (p: any) => (p && typeof p === 'object' && p.name === NULL_NAME ? { ...p, name: null } : p);
  return res.status < 300 ? mapBody(res, (v) => (Array.isArray(v) ? v.map(unmask) : unmask(v))) : res;
};

/** `{"status": null}` is taken as given: the pet is created, stored and shown with `"status": null` (not a PetStatus, §2.1). */
function storesNullStatus(): Fault {
  const nulled = new Set<string>();
  return async (h, req) => {
    const sent = isCreate(req) ? parse(bodyText(req)) : undefined;
    const isNull =
      sent !== null && typeof sent === 'object' && !Array.isArray(sent) && 'status' in sent && sent.status === null;
    const res = await h(isNull ? mapRequestBody(req, ({ status: _, ...rest }) => rest) : req);
    if (isNull && res.status === 201) nulled.add(String(parse(res.body)?.id));
    const unmask = (p: any) => (p && typeof p === 'object' && nulled.has(String(p.id)) ? { ...p, status: null } : p);
    return res.status < 300 ? mapBody(res, (v) => (Array.isArray(v) ? v.map(unmask) : unmask(v))) : res;
  };
}

/** Mass assignment: an `id` in the creation body becomes the pet's id (kept, and answered by GET and the list). */
function honoursClientId(): Fault {
  const inner = new Map<string, string>(); // the client's id → the reference's
  const outer = new Map<string, string>();
  return async (h, req) => {
    const sent = isCreate(req) ? parse(bodyText(req)) : undefined;
    const clientId = sent && typeof sent === 'object' && typeof sent.id === 'number' ? String(sent.id) : undefined;
    const asked = isGet(req) ? inner.get(pathOf(req).split('/').pop()!) : undefined;
    const res = await h(asked ? { ...req, path: `/v1/pets/${asked}` } : req);
    if (clientId !== undefined && res.status === 201) {
      const own = String(parse(res.body)?.id);
      inner.set(clientId, own);
      outer.set(own, clientId);
    }
    return res.status < 300
      ? {
          ...res,
          body: res.body.replace(/"id":(\d+)(?=[,}])/g, (m, d: string) => (outer.has(d) ? `"id":${outer.get(d)}` : m)),
        }
      : res;
  };
}

/** An empty object is "nothing to validate": a blank pet is created. */
const createsBlankPetFromEmptyObject: Fault = (h, req) =>
  h(
    isCreate(req) && bodyText(req).trim() === '{}'
      ? { ...req, body: JSON.stringify({ name: '', categoryId: 0 }) }
      : req,
  );

/** Body keys matched case-insensitively (a JSON binder told to ignore case): `{"NAME": "x", "CATEGORYID": 1}` creates a pet. */
const foldsKeyCase: Fault = (h, req) => {
  const byFolded = new Map(fieldsOf('NewPet').map((f) => [f.name.toLowerCase(), f.name]));
  const fold = (v: any) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).map(([k, x]) => [byFolded.get(k.toLowerCase()) ?? k, x]))
      : v;
  return h(isCreate(req) ? mapRequestBody(req, fold) : req);
};

/** status is trimmed before it is checked (and stored trimmed). */
const trimsStatus: Fault = (h, req) =>
  h(
    isCreate(req)
      ? mapRequestBody(req, (v) => (v && typeof v.status === 'string' ? { ...v, status: v.status.trim() } : v))
      : req,
  );

/** The body goes through JSON.parse: categoryId beyond 2^53 is rounded to the nearest double before it is stored. */
const categoryIdThroughDouble: Fault = (h, req) => {
  if (!isCreate(req)) return h(req);
  try {
    return h({ ...req, body: JSON.stringify(JSON.parse(bodyText(req))) });
  } catch {
    return h(req);
  }
};

/** Stored exactly and echoed from the request by creation, but read back (GET, list) through a double: categoryId beyond 2^53 comes back rounded. */
const readsCategoryIdThroughDouble: Fault = async (h, req) => {
  const res = await h(req);
  if (!(isGet(req) || isList(req)) || res.status !== 200) return res;
  return {
    ...res,
    body: res.body.replace(
      /"categoryId":(-?\d+)(?=[,}])/g,
      (_, d: string) => `"categoryId":${JSON.stringify(Number(d))}`,
    ),
  };
};

/** `limit=` (empty) reads as "no limit": every pet the store has. */
const emptyLimitMeansAll: Fault = async (h, req) => {
  if (!isList(req) || query(req).get('limit') !== '') return h(req);
  const all = new Map<number, unknown>();
  for (const q of [
    { limit: '100' },
    ...['available', 'pending', 'sold'].map((status) => ({ status, limit: '100' })),
  ] as Array<Record<string, string>>) {
    for (const p of parse((await h(withQuery(req, new URLSearchParams(q)))).body) ?? []) all.set(p.id, p);
  }
  return mapBody(await h(withQuery(req, new URLSearchParams({ limit: '1' }))), () => [...all.values()]);
};

/** The status filter is trimmed before it is matched. */
const trimsStatusFilter: Fault = (h, req) => {
  const q = query(req);
  const status = q.get('status');
  if (isList(req) && status !== null) q.set('status', status.trim());
  return h(isList(req) ? withQuery(req, q) : req);
};

/** A negative petId indexes an array and crashes (500). */
const negativePetIdCrashes: Fault = async (h, req): Promise<AppResponse> =>
  isGet(req) && /^-\d/.test(decodeURIComponent(pathOf(req).split('/').pop()!))
    ? { status: 500, headers: { 'content-type': 'text/plain' }, body: 'Internal Server Error' }
    : h(req);

/** createPet's auth middleware lets `Authorization: Bearer` with an empty token through as the first key. */
function createAcceptsEmptyBearer(validKey: () => string): Fault {
  return (h, req: AppRequest) =>
    isCreate(req) && /^Bearer\s*$/i.test(req.headers['authorization'] ?? '')
      ? h({ ...req, headers: { ...req.headers, authorization: `Bearer ${validKey()}` } })
      : h(req);
}

/** The auth middleware reads the token after the first space and never looks at the scheme: `Basic <key>` passes. */
function ignoresSchemeName(validKey: () => string): Fault {
  return (h, req: AppRequest) => {
    const token = /^\S+ +(\S+)$/.exec(req.headers['authorization'] ?? '')?.[1];
    return h(token === validKey() ? { ...req, headers: { ...req.headers, authorization: `Bearer ${token}` } } : req);
  };
}

/** The faults, keyed by the name that routes to them; `validKey` is the shared server's key. */
export function coverageFaults(validKey: () => string): Record<string, Fault> {
  return {
    storesNullName,
    storesNullStatus: storesNullStatus(),
    honoursClientId: honoursClientId(),
    createsBlankPetFromEmptyObject,
    foldsKeyCase,
    trimsStatus,
    categoryIdThroughDouble,
    readsCategoryIdThroughDouble,
    emptyLimitMeansAll,
    trimsStatusFilter,
    negativePetIdCrashes,
    createAcceptsEmptyBearer: createAcceptsEmptyBearer(validKey),
    ignoresSchemeName: ignoresSchemeName(validKey),
  };
}
