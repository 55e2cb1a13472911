// OpenAPI's `format: int64` (the contract's ids and categoryId, spec/openapi.yaml): a signed 64-bit
// integer. Its bounds are written once, here; everyone who needs them (the reference server's parser,
// the validators, the coverage edges, the arbitraries) reads them from this file.
export const INT64 = { min: -(2n ** 63n), max: 2n ** 63n - 1n } as const;

export const isInt64 = (v: bigint): boolean => v >= INT64.min && v <= INT64.max;

/**
 * The same range on a parsed JSON number (a double): 2^63 - 1 and 2^63 are the same double, so this is
 * the closest honest check on parsed values (-2^63 ≤ v ≤ 2^63); exactness is for the source text.
 */
export const isInt64Double = (v: number): boolean =>
  Number.isInteger(v) && v >= Number(INT64.min) && v <= Number(INT64.max);
