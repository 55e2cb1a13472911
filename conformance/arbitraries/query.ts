// Query values for GET /pets and path values for GET /pets/{petId}. Bounds come from spec/contract.ts.
import fc from 'fast-check';
import { LIMIT, PET_STATUSES } from '../../spec/contract.ts';

export function limitInRange(): fc.Arbitrary<number> {
  return fc.oneof(fc.integer({ min: LIMIT.min, max: LIMIT.max }), fc.constantFrom(LIMIT.min, LIMIT.default, LIMIT.default + 1, LIMIT.max));
}

/** Text of a `limit` outside the range or not an integer (§4.1): 400 or a clamped 200 are both fine. */
export function limitOutOfRange(): fc.Arbitrary<string> {
  return fc.oneof(
    fc.integer({ min: -1000, max: LIMIT.min - 1 }).map(String),
    fc.integer({ min: LIMIT.max + 1, max: 1_000_000 }).map(String),
    fc.constantFrom('1.5', 'abc', '', 'ten', '-', '20abc', '9223372036854775808'),
  );
}

/** `status` filter values outside PetStatus, case variants included (a gap: 400 or 200). */
export function unknownStatusFilter(): fc.Arbitrary<string> {
  return fc
    .oneof(fc.constantFrom('Available', 'SOLD', 'Pending', 'unknown', 'deleted', ' available'), fc.string({ minLength: 1, maxLength: 10 }))
    .filter((s) => !(PET_STATUSES as readonly string[]).includes(s));
}

/** Valid int64 ids unlikely to exist (a server that has one answers 200 with it, which is fine). */
export function absentPetId(): fc.Arbitrary<string> {
  return fc.bigInt({ min: 2n ** 31n, max: 2n ** 63n - 1n }).map(String);
}

/** Path values that are not int64 integers (§4.3): 400 or 404 with an Error. */
export function badPetId(): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom('abc', '1.5', '-', 'null', 'true', '1,2', '%20', '9223372036854775808', '-9223372036854775809', '99999999999999999999999'),
    fc.string({ unit: fc.constantFrom(...'abcxyz_~'), minLength: 1, maxLength: 8 }),
  );
}
