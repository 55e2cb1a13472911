// What a capacity iteration sends, chosen from the iteration number (no state shared between VUs):
// list with realistic limit/status values (§4.1: limit 1..100, default 20; status filter optional),
// and NewPets (§2.2) named with petcert's prefix so they can be told apart on the target.
import { LIMIT, PET_STATUSES as STATUSES } from '../../spec/contract.ts';

/** Mostly the default page, sometimes a small or a full page; a status filter one time in three. */
const LIMITS: ReadonlyArray<number | undefined> = [undefined, undefined, 10, 50, undefined, LIMIT.max];

function buildQuery(i: number): string {
  const limit = LIMITS[i % LIMITS.length];
  const status = i % 3 === 0 ? STATUSES[(i / 3) % STATUSES.length] : undefined;
  const parts = [limit === undefined ? '' : `limit=${limit}`, status === undefined ? '' : `status=${status}`].filter(Boolean);
  return parts.length ? `?${parts.join('&')}` : '';
}

/** One period of the sequence, built once: the hot path of a k6 iteration only indexes it. */
const QUERIES: readonly string[] = Array.from({ length: LIMITS.length * 3 * STATUSES.length }, (_, i) => buildQuery(i));

export function listQuery(i: number): string {
  return QUERIES[i % QUERIES.length]!;
}

export function newPetBody(i: number, vu: number): string {
  return JSON.stringify({ name: `petcert-capacity-${vu}-${i}`, categoryId: 1 + (i % 7), status: STATUSES[i % STATUSES.length] });
}
