// What a capacity iteration sends, chosen from the iteration number (no state shared between VUs):
// list with realistic limit/status values (§4.1: limit 1..100, default 20; status filter optional),
// and NewPets (§2.2) named with petcert's prefix so they can be told apart on the target. The bounds
// and statuses are passed in (spec/contract.ts's LIMIT.max and PET_STATUSES): the k6 bundle reads them
// once in its cold path, so the contract's data is not evaluated in every VU (scripts/k6-lazy.ts).

/** Mostly the default page, sometimes a small or a full page; a status filter one time in three. */
const limitsOf = (max: number): ReadonlyArray<number | undefined> => [undefined, undefined, 10, 50, undefined, max];

function buildQuery(i: number, limits: ReadonlyArray<number | undefined>, statuses: readonly string[]): string {
  const limit = limits[i % limits.length];
  const status = i % 3 === 0 ? statuses[(i / 3) % statuses.length] : undefined;
  const parts = [limit === undefined ? '' : `limit=${limit}`, status === undefined ? '' : `status=${status}`].filter(
    Boolean,
  );
  return parts.length ? `?${parts.join('&')}` : '';
}

/** One period of the list queries, built once: the hot path of a k6 iteration only indexes it. */
export function listQueries(limitMax: number, statuses: readonly string[]): string[] {
  const limits = limitsOf(limitMax);
  return Array.from({ length: limits.length * 3 * statuses.length }, (_, i) => buildQuery(i, limits, statuses));
}

/** The NewPet of iteration i in VU vu, with one of the contract's statuses (the caller picks it by i). */
export function newPetBody(i: number, vu: number, status: string): string {
  return JSON.stringify({ name: `petcert-capacity-${vu}-${i}`, categoryId: 1 + (i % 7), status });
}
