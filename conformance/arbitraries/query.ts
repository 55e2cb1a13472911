// Query values for GET /pets and path values for GET /pets/{petId}. Bounds come from spec/contract.ts.
import { INT64 } from '../../spec/int64.ts';
import fc from 'fast-check';
import { LIMIT, PET_STATUSES } from '../../spec/contract.ts';

export function limitInRange(): fc.Arbitrary<number> {
  return fc.oneof(
    fc.integer({ min: LIMIT.min, max: LIMIT.max }),
    fc.constantFrom(LIMIT.min, LIMIT.default, LIMIT.default + 1, LIMIT.max),
  );
}

/** Text of a `limit` outside the range or not an integer (§4.1): 400 or a clamped 200 are both fine. */
export function limitOutOfRange(): fc.Arbitrary<string> {
  return fc.oneof(
    fc.integer({ min: -1000, max: LIMIT.min - 1 }).map(String),
    fc.integer({ min: LIMIT.max + 1, max: 1_000_000 }).map(String),
    fc.constantFrom('1.5', 'abc', '', 'ten', '-', '20abc', '9223372036854775808'),
  );
}

/** limit=0 read as "no limit", 101 not clamped, negatives, text: the common mistakes, tried first. */
export const LIMIT_OUT_OF_RANGE_EXAMPLES: readonly string[] = [
  String(LIMIT.min - 1),
  String(LIMIT.max + 1),
  '-1',
  'abc',
];

/** A case variant (a case-insensitive match returns the animals it does not name) and an unknown value. */
export const UNKNOWN_STATUS_EXAMPLES: readonly string[] = ['SOLD', 'lost'];

/** int32 overflow and a value a double cannot hold exactly (2^53 + 1). */
export const ABSENT_ID_EXAMPLES: readonly string[] = [String(2 ** 31), '9007199254740993'];

export const BAD_ID_EXAMPLES: readonly string[] = ['abc', '9223372036854775808', '1.5'];

/** `status` filter values outside PetStatus, case variants included (a gap: 400 or 200). */
export function unknownStatusFilter(): fc.Arbitrary<string> {
  return fc
    .oneof(
      fc.constantFrom('Available', 'SOLD', 'Pending', 'unknown', 'deleted', ' available'),
      fc.string({ minLength: 1, maxLength: 10 }),
    )
    .filter((s) => !(PET_STATUSES as readonly string[]).includes(s));
}

/** Valid int64 ids unlikely to exist (a server that has one answers 200 with it, which is fine). */
export function absentPetId(): fc.Arbitrary<string> {
  return fc.bigInt({ min: 2n ** 31n, max: INT64.max }).map(String);
}

/** Path values that are not int64 integers (§4.3): 400 or 404 with an Error. */
export function badPetId(): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom(
      'abc',
      '1.5',
      '-',
      'null',
      'true',
      '1,2',
      '%20',
      '9223372036854775808',
      '-9223372036854775809',
      '99999999999999999999999',
    ),
    fc.string({ unit: fc.constantFrom(...'abcxyz_~'), minLength: 1, maxLength: 8 }),
  );
}
