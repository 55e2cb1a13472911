// The coverage cases against the schema (spec/validators.ts is the oracle): what a case calls invalid
// is invalid, what it calls valid is valid — so no case blames a server for petcert's own input.
import { isLosslessNumber, parse as parseLossless } from 'lossless-json';
import { describe, expect, test } from 'vitest';
import { LIMIT, PET_STATUSES } from '../../spec/contract.ts';
import { isNewPet } from '../../spec/validators.ts';
import { deriveCases, FAMILIES, type CaseSpec } from './derive.ts';
import { fieldsOf } from './schema.ts';
import { isInt64 } from '../../spec/int64.ts';

const cases = deriveCases();
const byKind = <K extends CaseSpec['expect']['kind']>(kind: K) =>
  cases
    .filter((c) => c.expect.kind === kind)
    .map((c) => ({ ...c, expect: c.expect as Extract<CaseSpec['expect'], { kind: K }> }));

/** Valid by the schema and, for integers JSON.parse rounds, within int64 as written. */
function validNewPetText(body: string): boolean {
  if (!isNewPet(JSON.parse(body))) return false;
  const exact = parseLossless(body) as Record<string, unknown>;
  return Object.values(exact).every(
    (v) => !isLosslessNumber(v) || !/^-?\d+$/.test(v.value) || isInt64(BigInt(v.value)),
  );
}

describe('coverage cases derived from the contract', () => {
  test('names are unique and shell-safe; every family has cases', () => {
    const names = cases.map((c) => c.name);
    expect(new Set(names).size).toBe(names.length);
    for (const n of names) expect(n).toMatch(/^[A-Za-z0-9.:=+^\/_-]+$/);
    expect(new Set(cases.map((c) => c.family))).toEqual(new Set(Object.keys(FAMILIES)));
  });

  test('every body a case calls invalid is invalid NewPet text, and every valid one is valid', () => {
    for (const c of [...byKind('create-refused'), ...byKind('create-missing')])
      expect(validNewPetText(c.expect.body), c.name).toBe(false);
    for (const c of byKind('create-accepted')) expect(validNewPetText(JSON.stringify(c.expect.pet)), c.name).toBe(true);
    for (const c of byKind('create-unknown-field')) expect(isNewPet(JSON.parse(c.expect.body)), c.name).toBe(true);
    for (const c of byKind('create-int64')) expect(isInt64(BigInt(c.expect.text)), c.name).toBe(true);
  });

  test('every NewPet field gets every JSON type its schema refuses; null for an optional field is recorded, not refused', () => {
    for (const f of fieldsOf('NewPet')) {
      const types = cases.filter((c) => c.name.startsWith(`NewPet.${f.name}:type=`)).map((c) => c.name.split('=')[1]);
      expect(types.length, f.name).toBeGreaterThanOrEqual(5);
      expect(types).toContain('null');
      expect(types).toContain('array');
      expect(types).toContain('object');
    }
    expect(byKind('create-null-optional').map((c) => c.expect.field)).toEqual(
      fieldsOf('NewPet')
        .filter((f) => !f.required)
        .map((f) => f.name),
    );
    expect(cases.find((c) => c.name === 'NewPet.name:type=null')?.expect).toEqual({
      kind: 'create-refused',
      body: '{"name":null,"categoryId":1}',
    });
    expect(cases.find((c) => c.name === 'NewPet.categoryId:type=string')?.expect).toEqual({
      kind: 'create-refused',
      body: '{"name":"petcert-coverage-invalid","categoryId":"1"}',
    });
  });

  test('each required field missing; the enum and its outsiders; the int64 edges', () => {
    expect(
      byKind('create-missing')
        .filter((c) => c.family === 'body-required')
        .map((c) => c.name),
    ).toEqual(['NewPet.name:missing', 'NewPet.categoryId:missing', 'NewPet:all-required-missing']);
    expect(byKind('create-accepted').map((c) => c.expect.pet.status)).toEqual([...PET_STATUSES]);
    const outsiders = cases
      .filter((c) => c.family === 'body-enum' && c.expect.kind === 'create-refused')
      .map((c) => JSON.parse((c.expect as { body: string }).body).status);
    expect(outsiders).toEqual(expect.arrayContaining(['AVAILABLE', 'Sold', ' pending', 'available ', '']));
    for (const s of outsiders) expect(PET_STATUSES).not.toContain(s);
    expect(byKind('create-int64').map((c) => c.expect.text)).toEqual([
      '9223372036854775807',
      '-9223372036854775808',
      '9007199254740993',
      '9007199254740991',
    ]);
    expect(
      cases.filter((c) => c.family === 'body-int64' && c.expect.kind === 'create-refused').map((c) => c.name),
    ).toEqual(['NewPet.categoryId:above-int64-max', 'NewPet.categoryId:below-int64-min']);
  });

  test('the required keys in another case: derived from the schema, each body lacking a required field', () => {
    const required = fieldsOf('NewPet')
      .filter((f) => f.required)
      .map((f) => f.name);
    const keyCases = cases.filter((c) => c.family === 'body-key-case');
    expect(keyCases.map((c) => c.name)).toEqual([
      'NewPet:keys=upper',
      'NewPet:keys=capitalized',
      'NewPet:keys=lower',
      'NewPet:keys=swapped',
    ]);
    expect(keyCases[0]!.expect).toEqual({
      kind: 'create-missing',
      body: '{"NAME":"petcert-coverage-invalid","CATEGORYID":1}',
    });
    for (const c of keyCases) {
      const keys = Object.keys(JSON.parse((c.expect as { body: string }).body) as object);
      // The same keys but for case, and at least one required field absent as written.
      expect(
        keys.map((k) => k.toLowerCase()),
        c.name,
      ).toEqual(required.map((k) => k.toLowerCase()));
      expect(
        required.some((k) => !keys.includes(k)),
        c.name,
      ).toBe(true);
    }
  });

  test('limit bounds, status filters outside PetStatus, petIds outside int64', () => {
    expect(byKind('list-limit-inside').map((c) => c.expect.limit)).toEqual([LIMIT.min, LIMIT.max]);
    expect(byKind('list-limit-outside').map((c) => c.expect.values)).toEqual([
      ['0'],
      ['101'],
      ['1.5'],
      [''],
      ['1', '100'],
    ]);
    for (const c of byKind('list-status-outside')) expect(PET_STATUSES).not.toContain(c.expect.value);
    expect(byKind('get-bad-id').map((c) => c.expect.id)).toEqual([
      '1.5',
      'abc',
      '9223372036854775808',
      '-9223372036854775809',
    ]);
    expect(byKind('get-absent').map((c) => c.expect.id)).toEqual(['9223372036854775807', '-9223372036854775808']);
  });

  test('every operation of the contract × every refused credential; the §4.4 endpoint with and without a key', () => {
    const ops = new Set(byKind('credentials').map((c) => c.expect.operationId));
    expect(ops).toEqual(new Set(['listPets', 'createPet', 'getPet']));
    expect(byKind('credentials')).toHaveLength(ops.size * 5);
    expect(byKind('unspecified-endpoint').map((c) => c.name)).toEqual([
      'GET/store/orders:with-key',
      'GET/store/orders:without-key',
    ]);
  });
});
