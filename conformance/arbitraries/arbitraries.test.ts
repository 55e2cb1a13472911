// Each arbitrary checked against the compiled schema (spec/validators.ts is the oracle): valid inputs
// are valid, invalid inputs are invalid — so a check never blames a server for our own bad input.
import { isInt64 } from '../../spec/int64.ts';
import fc from 'fast-check';
import { parse as parseLossless, isLosslessNumber } from 'lossless-json';
import { describe, expect, test } from 'vitest';
import { LIMIT, PET_STATUSES } from '../../spec/contract.ts';
import { isNewPet } from '../../spec/validators.ts';
import { invalidCredential, invalidCredentialExamples, schemeCaseVariant } from './credentials.ts';
import { MAX_VALID_NAME_CODE_POINTS, NAME_PREFIX, extremeName, petName } from './names.ts';
import {
  invalidValueExamples,
  missingExamples,
  newPetInvalidValue,
  newPetMissing,
  newPetWithUnknownField,
  nonObjectBody,
  nonObjectExamples,
  validNewPet,
  validNewPetExamples,
} from './new-pet.ts';
import {
  ABSENT_ID_EXAMPLES,
  BAD_ID_EXAMPLES,
  LIMIT_OUT_OF_RANGE_EXAMPLES,
  UNKNOWN_STATUS_EXAMPLES,
  absentPetId,
  badPetId,
  limitInRange,
  limitOutOfRange,
  unknownStatusFilter,
} from './query.ts';

const runs = { numRuns: 300, seed: 7 };

/** Invalid by the schema, or (for integers JSON.parse cannot tell apart) outside int64 as written. */
function invalidNewPetText(body: string): boolean {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return true;
  }
  if (!isNewPet(value)) return true;
  const exact = parseLossless(body) as Record<string, unknown>;
  const c = exact['categoryId'];
  return isLosslessNumber(c) && /^-?\d+$/.test(c.value) && !isInt64(BigInt(c.value));
}

describe('arbitraries agree with the schema', () => {
  test('validNewPet is a NewPet, named petcert-…, serialised exactly', () => {
    fc.assert(
      fc.property(validNewPet(), (pet) => {
        expect(isNewPet(JSON.parse(JSON.stringify(pet)))).toBe(true);
        expect(pet.name.startsWith(NAME_PREFIX)).toBe(true);
        expect([...pet.name].length).toBeLessThanOrEqual(MAX_VALID_NAME_CODE_POINTS);
        expect(Number.isSafeInteger(pet.categoryId)).toBe(true);
      }),
      runs,
    );
  });
  test('valid names reach beyond ASCII', () => {
    expect(fc.sample(petName(), { numRuns: 200, seed: 1 }).some((n) => /[^\x00-\x7f]/.test(n))).toBe(true);
  });
  test.for([
    ['newPetMissing', newPetMissing],
    ['newPetInvalidValue', newPetInvalidValue],
    ['nonObjectBody', nonObjectBody],
  ] as const)('%s is never a valid NewPet', ([, arb]) => {
    fc.assert(
      fc.property(arb(), (b) => void expect(invalidNewPetText(b.body)).toBe(true)),
      runs,
    );
  });
  test('floats are not written as 1.0 (an integer to JSON Schema)', () => {
    for (const b of fc.sample(newPetInvalidValue(), { numRuns: 500, seed: 2 }))
      expect(b.body).not.toMatch(/"categoryId":-?\d+\.0+[,}]/);
  });
  test('a valid pet with an unknown field is still a NewPet (the schema allows extra fields)', () => {
    fc.assert(
      fc.property(newPetWithUnknownField(), ({ body }) => void expect(isNewPet(JSON.parse(body))).toBe(true)),
      runs,
    );
  });
  test('extreme names are strings (valid by the schema: the limit is the gap)', () => {
    fc.assert(
      fc.property(extremeName(), ({ name }) => void expect(isNewPet({ name, categoryId: 1 })).toBe(true)),
      runs,
    );
  });
  test('limits in range are, limits out of range are not', () => {
    fc.assert(
      fc.property(
        limitInRange(),
        (n) => void expect(n >= LIMIT.min && n <= LIMIT.max && Number.isInteger(n)).toBe(true),
      ),
      runs,
    );
    fc.assert(
      fc.property(
        limitOutOfRange(),
        (t) => void expect(/^\d+$/.test(t) && Number(t) >= LIMIT.min && Number(t) <= LIMIT.max).toBe(false),
      ),
      runs,
    );
  });
  test('unknown status filters are outside PetStatus', () => {
    fc.assert(
      fc.property(
        unknownStatusFilter(),
        (s) => void expect((PET_STATUSES as readonly string[]).includes(s)).toBe(false),
      ),
      runs,
    );
  });
  test('absent ids are int64; bad ids are not', () => {
    fc.assert(
      fc.property(absentPetId(), (t) => void expect(BigInt(t) >= 0n && isInt64(BigInt(t))).toBe(true)),
      runs,
    );
    fc.assert(
      fc.property(badPetId(), (t) => void expect(/^-?\d+$/.test(t) && isInt64(BigInt(t))).toBe(false)),
      runs,
    );
  });
  test('invalid credentials never carry the key as "Bearer <key>"; scheme variants do, in another case', () => {
    const key = 'petcert-secret-key';
    fc.assert(
      fc.property(invalidCredential(key), (c) => void expect(c.header).not.toBe(`Bearer ${key}`)),
      runs,
    );
    fc.assert(
      fc.property(schemeCaseVariant(key), (c) => void expect(c.header).toMatch(new RegExp(`^(?!Bearer )\\S+ ${key}$`))),
      runs,
    );
  });

  // Examples run first in every run: they must be what their arbitrary promises, like generated inputs.
  test('examples agree with the schema too', () => {
    for (const pet of validNewPetExamples()) {
      expect(isNewPet(JSON.parse(JSON.stringify(pet)))).toBe(true);
      expect(
        pet.name.startsWith(NAME_PREFIX) &&
          [...pet.name].length <= MAX_VALID_NAME_CODE_POINTS &&
          Number.isSafeInteger(pet.categoryId),
      ).toBe(true);
    }
    for (const b of [...missingExamples(), ...invalidValueExamples(), ...nonObjectExamples()])
      expect(invalidNewPetText(b.body)).toBe(true);
    for (const t of LIMIT_OUT_OF_RANGE_EXAMPLES)
      expect(/^\d+$/.test(t) && Number(t) >= LIMIT.min && Number(t) <= LIMIT.max).toBe(false);
    for (const s of UNKNOWN_STATUS_EXAMPLES) expect((PET_STATUSES as readonly string[]).includes(s)).toBe(false);
    for (const t of ABSENT_ID_EXAMPLES) expect(BigInt(t) >= 2n ** 31n && isInt64(BigInt(t))).toBe(true);
    for (const t of BAD_ID_EXAMPLES) expect(/^-?\d+$/.test(t) && isInt64(BigInt(t))).toBe(false);
    for (const c of invalidCredentialExamples('petcert-secret-key'))
      expect(c.header).not.toBe('Bearer petcert-secret-key');
  });
});
