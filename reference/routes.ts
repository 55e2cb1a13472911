// §4: the three operations under the base path, plus 404 for unknown paths and 405 (with Allow) for
// known paths with another method. HEAD is answered as GET (RFC 9110 §9.3.2); the socket drops the body.
import { GET_PET_DEPRECATION, LIMIT, PET_STATUSES, type PetStatus } from '../spec/contract.ts';
import { parseNewPet } from './body.ts';
import { int64FromDecimal } from './json-int.ts';
import { errorResponse, json, type ErrorStatus } from './responses.ts';
import type { Store } from './store.ts';
import type { AppRequest, AppResponse } from './types.ts';
import type { ResolvedVariants } from './variants.ts';

export const BASE_PATH = '/v1';

export interface RouteContext {
  store: Store;
  variants: ResolvedVariants;
  /** Deprecation, Sunset and Link headers of GET /pets/{petId}, computed once. */
  deprecationHeaders: Record<string, string>;
}

/** RFC 9745 `Deprecation: @<unix seconds>`: when getPet became deprecated (our choice, see GAPS.md). */
export const DEPRECATED_SINCE = Date.UTC(2025, 0, 1) / 1000;

export function deprecationHeaders(): Record<string, string> {
  const sunset = new Date(`${GET_PET_DEPRECATION.removalDate}T00:00:00Z`).toUTCString(); // RFC 8594
  return {
    deprecation: `@${DEPRECATED_SINCE}`,
    sunset,
    link: `<${BASE_PATH}/pets>; rel="successor-version"`,
  };
}

const STATUSES = new Set<string>(PET_STATUSES);

function fail(ctx: RouteContext, status: ErrorStatus, message: string, headers?: Record<string, string>): AppResponse {
  return errorResponse(status, message, ctx.variants.errorContentType, headers);
}

type Parsed<T> = { ok: true; value: T } | { ok: false; response: AppResponse };

function readLimit(ctx: RouteContext, raw: string | null): Parsed<number> {
  if (raw === null) return { ok: true, value: LIMIT.default };
  const n = /^[+-]?\d{1,12}$/.test(raw) ? Number(raw) : NaN;
  if (ctx.variants.limitOutOfRange === 'clamp') {
    return { ok: true, value: Number.isNaN(n) ? LIMIT.default : Math.min(LIMIT.max, Math.max(LIMIT.min, n)) };
  }
  if (Number.isNaN(n))
    return { ok: false, response: fail(ctx, 400, `limit must be an integer from ${LIMIT.min} to ${LIMIT.max}`) };
  if (n < LIMIT.min || n > LIMIT.max)
    return { ok: false, response: fail(ctx, 400, `limit must be from ${LIMIT.min} to ${LIMIT.max}, got ${n}`) };
  return { ok: true, value: n };
}

function listPets(ctx: RouteContext, query: string): AppResponse {
  const params = new URLSearchParams(query);
  if (params.getAll('limit').length > 1 || params.getAll('status').length > 1) {
    return fail(ctx, 400, 'limit and status may each be given once');
  }
  const limit = readLimit(ctx, params.get('limit'));
  if (!limit.ok) return limit.response;
  const status = params.get('status');
  if (status !== null && !STATUSES.has(status)) {
    if (ctx.variants.unknownStatusFilter === 'empty') return json(200, '[]');
    return fail(ctx, 400, `status must be one of ${PET_STATUSES.join(', ')}`);
  }
  const pets = ctx.store.list({
    limit: limit.value,
    status: (status ?? undefined) as PetStatus | undefined,
    order: ctx.variants.order,
  });
  return json(200, `[${pets.map((p) => p.json).join(',')}]`);
}

function createPet(ctx: RouteContext, req: AppRequest): AppResponse {
  const parsed = parseNewPet(req.body, ctx.variants);
  if (!parsed.ok) return fail(ctx, 400, parsed.message);
  const pet =
    parsed.pet.status === undefined && ctx.variants.defaultStatus
      ? { ...parsed.pet, status: ctx.variants.defaultStatus }
      : parsed.pet;
  const stored = ctx.store.create(pet);
  return json(201, stored.json, { location: `${BASE_PATH}/pets/${stored.id}` });
}

function getPet(ctx: RouteContext, rawId: string): AppResponse {
  let decoded: string;
  try {
    decoded = decodeURIComponent(rawId);
  } catch {
    decoded = rawId;
  }
  const id = int64FromDecimal(decoded);
  if (id === undefined) {
    const status = ctx.variants.badPetId;
    return fail(
      ctx,
      status,
      status === 400 ? 'petId must be an int64 integer' : `no pet with id ${JSON.stringify(decoded)}`,
      ctx.deprecationHeaders,
    );
  }
  const pet = ctx.store.get(id);
  if (!pet) return fail(ctx, 404, `no pet with id ${id}`, ctx.deprecationHeaders);
  return json(200, pet.json, ctx.deprecationHeaders);
}

function notAllowed(ctx: RouteContext, allow: string): AppResponse {
  return fail(ctx, 405, `method not allowed (allowed: ${allow})`, { allow });
}

export function route(ctx: RouteContext, req: AppRequest): AppResponse {
  const q = req.path.indexOf('?');
  const path = q === -1 ? req.path : req.path.slice(0, q);
  const query = q === -1 ? '' : req.path.slice(q + 1);
  const method = req.method === 'HEAD' ? 'GET' : req.method;
  if (path === `${BASE_PATH}/pets`) {
    if (method === 'GET') return listPets(ctx, query);
    if (method === 'POST') return createPet(ctx, req);
    return notAllowed(ctx, 'GET, HEAD, POST');
  }
  const prefix = `${BASE_PATH}/pets/`;
  if (path.startsWith(prefix) && path.length > prefix.length && !path.includes('/', prefix.length)) {
    if (method === 'GET') return getPet(ctx, path.slice(prefix.length));
    return notAllowed(ctx, 'GET, HEAD');
  }
  return fail(ctx, 404, `no such resource: ${path.slice(0, 200)}`);
}
