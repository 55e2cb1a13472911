import { describe, expect, test } from 'vitest';
import { parseNewPet } from './body.ts';
import { resolveVariants } from './variants.ts';

const defaults = resolveVariants();

describe('parseNewPet (§4.2)', () => {
  test('a valid NewPet keeps its fields, categoryId as exact text', () => {
    expect(parseNewPet('{"name":"Rex","categoryId":9223372036854775807,"status":"sold"}', defaults)).toEqual({
      ok: true,
      pet: { name: 'Rex', categoryId: '9223372036854775807', status: 'sold' },
    });
  });

  test('1.0 is an integer (JSON Schema), stored canonically', () => {
    expect(parseNewPet('{"name":"a","categoryId":1.0}', defaults)).toEqual({
      ok: true,
      pet: { name: 'a', categoryId: '1' },
    });
  });

  test.for([
    ['missing name', '{"categoryId":1}'],
    ['missing categoryId', '{"name":"a"}'],
    ['keys in upper case (JSON keys are case-sensitive)', '{"NAME":"a","CATEGORYID":1}'],
    ['keys capitalised', '{"Name":"a","CategoryId":1}'],
    ['one key in another case', '{"name":"a","categoryID":1}'],
    ['float categoryId', '{"name":"a","categoryId":1.5}'],
    ['categoryId just above int64', '{"name":"a","categoryId":9223372036854775808}'],
    ['categoryId just below int64', '{"name":"a","categoryId":-9223372036854775809}'],
    ['huge categoryId', '{"name":"a","categoryId":1e400}'],
    ['string categoryId', '{"name":"a","categoryId":"1"}'],
    ['number name', '{"name":1,"categoryId":1}'],
    ['unknown status', '{"name":"a","categoryId":1,"status":"lost"}'],
    ['null status', '{"name":"a","categoryId":1,"status":null}'],
    ['malformed JSON', '{"name":"a",'],
    ['array body', '[{"name":"a","categoryId":1}]'],
    ['null body', 'null'],
    ['string body', '"pet"'],
    ['empty body', ''],
  ] as const)('400 for %s', ([, body]) => {
    expect(parseNewPet(body, defaults).ok).toBe(false);
  });

  test('invalid UTF-8 is refused', () => {
    const bad = Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xff, 0xfe]), Buffer.from('","categoryId":1}')]);
    expect(parseNewPet(bad, defaults)).toEqual({ ok: false, message: 'request body is not valid UTF-8' });
  });

  test('names are limited to maxNameLength code points', () => {
    const v = resolveVariants({ maxNameLength: 3 });
    expect(parseNewPet('{"name":"🐶🐶🐶","categoryId":1}', v).ok).toBe(true);
    expect(parseNewPet('{"name":"abcd","categoryId":1}', v).ok).toBe(false);
  });

  test('unknown fields: ignored by default (and not stored), refused on request', () => {
    const body = '{"name":"a","categoryId":1,"colour":"red"}';
    expect(parseNewPet(body, defaults)).toEqual({ ok: true, pet: { name: 'a', categoryId: '1' } });
    expect(parseNewPet(body, resolveVariants({ unknownFields: 'reject' })).ok).toBe(false);
  });

  test('categories restrict the accepted ids', () => {
    const v = resolveVariants({ categories: [1, 2] });
    expect(parseNewPet('{"name":"a","categoryId":2}', v).ok).toBe(true);
    expect(parseNewPet('{"name":"a","categoryId":3}', v).ok).toBe(false);
  });
});
