// Bodies for POST /pets. Valid ones are objects (serialised by JSON.stringify); invalid ones are JSON
// *text*, because some invalid inputs (out-of-int64 integers, malformed JSON) have no JS value.
import fc from 'fast-check';
import { PET_STATUSES, type NewPet, type PetStatus } from '../../spec/contract.ts';
import { NAME_PREFIX, petName } from './names.ts';

/** §2.2: categoryId across the integers a JSON client represents exactly (|n| ≤ 2^53 - 1). */
export function categoryId(): fc.Arbitrary<number> {
  return fc.oneof(
    fc.maxSafeInteger(),
    fc.integer({ min: 0, max: 1000 }),
    fc.constantFrom(0, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER, 2 ** 31, -(2 ** 31) - 1),
  );
}

export function petStatus(): fc.Arbitrary<PetStatus> {
  return fc.constantFrom(...PET_STATUSES);
}

export function validNewPet(category: fc.Arbitrary<number> = categoryId()): fc.Arbitrary<NewPet> {
  return fc.record(
    { name: petName(), categoryId: category, status: petStatus() },
    { requiredKeys: ['name', 'categoryId'] },
  );
}

/**
 * Valid pets tried first: the echo mistakes real servers make. Few (they take runs a server with a
 * category table needs to hit one of its ids by chance) and plain apart from the mistake they probe,
 * since fast-check cannot shrink an example: a decomposed accent and a trailing space with no status
 * (Unicode normalisation, trimming, a default status); an emoji with quotes and a backslash (escaping)
 * with a categoryId beyond int32; a categoryId at the edge of a double's exact range.
 */
export function validNewPetExamples(): NewPet[] {
  return [
    { name: `${NAME_PREFIX}Ame\u0301lie `, categoryId: 1 },
    { name: `${NAME_PREFIX}🐶 "Rex" \\`, categoryId: 2 ** 31, status: 'sold' },
    { name: `${NAME_PREFIX}safe`, categoryId: Number.MAX_SAFE_INTEGER, status: 'pending' },
  ];
}

export interface InvalidBody {
  kind: string;
  body: string;
}

const base = { name: 'petcert-invalid', categoryId: 1 };
const withField = (field: string, valueJson: string): string =>
  JSON.stringify({ ...base, [field]: '@@' }).replace('"@@"', valueJson);

/** §4.2 rule 1: each required field missing. */
export function newPetMissing(): fc.Arbitrary<InvalidBody> {
  return fc
    .tuple(fc.constantFrom('name', 'categoryId', 'both'), fc.option(petStatus(), { nil: undefined }))
    .map(([field, status]) => {
      const pet: Record<string, unknown> = { ...base, ...(status ? { status } : {}) };
      if (field !== 'categoryId') delete pet.name;
      if (field !== 'name') delete pet.categoryId;
      return { kind: `missing-${field}`, body: JSON.stringify(pet) };
    });
}

const WRONG_TYPES: Record<string, string[]> = {
  name: ['42', 'true', 'null', '["a"]', '{"first":"a"}'],
  categoryId: ['"1"', 'true', 'null', '[1]', '{"id":1}', '"one"'],
  status: ['1', 'true', '["available"]', '{"s":"available"}'],
};

/** §2.2 types: string, integer/int64, PetStatus. A number written 1.0 is an integer to JSON Schema: not here. */
export function newPetInvalidValue(): fc.Arbitrary<InvalidBody> {
  const wrongType = fc.constantFrom(
    ...Object.entries(WRONG_TYPES).flatMap(([f, vs]) =>
      vs.map((v) => ({ kind: `wrong-type-${f}`, body: withField(f, v) })),
    ),
  );
  const float = fc
    .constantFrom('1.5', '-0.5', '3.000001', '1e-7', '123456.25')
    .map((v) => ({ kind: 'float-categoryId', body: withField('categoryId', v) }));
  const outOfInt64 = fc
    .constantFrom('9223372036854775808', '-9223372036854775809', '18446744073709551616', '99999999999999999999999')
    .map((v) => ({ kind: 'out-of-int64-categoryId', body: withField('categoryId', v) }));
  const badStatus = fc
    .oneof(
      fc.constantFrom('Available', 'AVAILABLE', 'Sold', 'PENDING', 'unknown', '', ' available', 'available '),
      fc.string({ maxLength: 12 }).filter((s) => !(PET_STATUSES as readonly string[]).includes(s)),
    )
    .map((s) => ({ kind: 'status-outside-enum', body: withField('status', JSON.stringify(s)) }));
  return fc.oneof(wrongType, float, outOfInt64, badStatus);
}

/** The invalid values lenient parsers let through most: numeric strings, floats, 2^63, enum case, a number for a string, null. */
export function invalidValueExamples(): InvalidBody[] {
  return [
    { kind: 'wrong-type-categoryId', body: withField('categoryId', '"1"') },
    { kind: 'float-categoryId', body: withField('categoryId', '1.5') },
    { kind: 'out-of-int64-categoryId', body: withField('categoryId', '9223372036854775808') },
    { kind: 'status-outside-enum', body: withField('status', '"AVAILABLE"') },
    { kind: 'wrong-type-name', body: withField('name', '42') },
    { kind: 'wrong-type-categoryId', body: withField('categoryId', 'null') },
  ];
}

export function missingExamples(): InvalidBody[] {
  return [
    { kind: 'missing-name', body: JSON.stringify({ categoryId: base.categoryId }) },
    { kind: 'missing-categoryId', body: JSON.stringify({ name: base.name }) },
  ];
}

export function nonObjectExamples(): InvalidBody[] {
  return [
    { kind: 'non-object', body: JSON.stringify([base]) },
    { kind: 'malformed-json', body: '' },
    { kind: 'malformed-json', body: '{"name":"petcert-x","categoryId":1}}' },
    { kind: 'non-object', body: 'null' },
  ];
}

/** Bodies that are not a JSON object, or not JSON at all. */
export function nonObjectBody(): fc.Arbitrary<InvalidBody> {
  return fc.oneof(
    fc
      .constantFrom('[]', '"petcert"', '42', 'null', 'true', JSON.stringify([base]))
      .map((body) => ({ kind: 'non-object', body })),
    fc
      .constantFrom(
        '{',
        '',
        '{"name":"petcert-x",}',
        "{'name':'petcert-x','categoryId':1}",
        '{"name":"petcert-x" "categoryId":1}',
        '{"name":"petcert-x","categoryId":1}}',
        'name=petcert-x&categoryId=1',
      )
      .map((body) => ({ kind: 'malformed-json', body })),
  );
}

/** A valid pet plus a field NewPet does not define (the gap: ignore or reject). */
/**
 * The `id` a client sends in a creation body (§2.1: not sent on creation; §4.2 rule 2: assigned by the
 * service). 2^52 + 12345: no service assigns it by coincidence (sequential ids never get there, random
 * int64 ids hit it once in 2^63), so a 201 carrying it took the client's id (create.id-assigned).
 */
export const CLIENT_ID = 2 ** 52 + 12_345;

export function newPetWithUnknownField(): fc.Arbitrary<{ pet: NewPet; body: string }> {
  return fc
    .tuple(validNewPet(fc.integer({ min: 1, max: 1000 })), fc.constantFrom('color', 'id', 'tags', 'owner'))
    .map(([pet, field]) => ({
      pet,
      body: JSON.stringify({ ...pet, [field]: field === 'id' ? CLIENT_ID : 'petcert' }),
    }));
}
