import { readFileSync } from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { generatedPath, readContractSource, renderContract } from '../scripts/gen-contract.ts';
import {
  DECLARED_HEADERS,
  GET_PET_DEPRECATION,
  LIMIT,
  PET_STATUSES,
  RATE_LIMIT_HEADERS,
  SCHEMA_NAMES,
  contract,
} from './contract.ts';
import { validate } from './validators.ts';

describe('spec/openapi.yaml', () => {
  it('validates as an OpenAPI 3.1 document', async () => {
    const result = await new Validator().validate(parse(readContractSource()) as Record<string, unknown>);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('is what contract.gen.ts was generated from (run `npm run gen` after editing it)', () => {
    expect(readFileSync(generatedPath, 'utf8')).toBe(renderContract(readContractSource()));
  });

  it('puts bearer security on every operation and 401/429 among its responses', () => {
    for (const [path, item] of Object.entries(contract.paths)) {
      for (const [method, op] of Object.entries(item)) {
        expect(op.security, `${method} ${path}`).toEqual([{ bearerAuth: [] }]);
        expect(Object.keys(op.responses), `${method} ${path}`).toEqual(expect.arrayContaining(['401', '429']));
      }
    }
  });

  it('declares the rate-limit headers the code reads', () => {
    const declared = DECLARED_HEADERS.map((h) => h.toLowerCase());
    for (const name of Object.values(RATE_LIMIT_HEADERS)) expect(declared).toContain(name);
  });

  it('exposes §2.3, §4.1 and §4.3 figures', () => {
    expect(PET_STATUSES).toEqual(['available', 'pending', 'sold']);
    expect(LIMIT).toEqual({ min: 1, max: 100, default: 20 });
    expect(GET_PET_DEPRECATION.deprecated).toBe(true);
    expect(GET_PET_DEPRECATION.removalDate).toBe('2030-12-05');
  });
});

describe('validators compiled from the contract', () => {
  it('compiles every schema', () => {
    for (const name of SCHEMA_NAMES) expect(() => validate(name, null)).not.toThrow();
  });

  it.for([
    ['Pet', { id: 1, name: 'Rex', categoryId: 2, status: 'sold' }, true],
    ['Pet', { id: 1, name: 'Rex', categoryId: 2 }, true],
    ['Pet', { name: 'Rex', categoryId: 2 }, false],
    ['Pet', { id: 1.5, name: 'Rex', categoryId: 2 }, false],
    ['Pet', { id: 1, name: 'Rex', categoryId: 2, status: 'Sold' }, false],
    ['NewPet', { name: 'Rex', categoryId: 2 ** 64 }, false],
    ['NewPet', { name: 'Rex', categoryId: -(2 ** 53) }, true],
    ['NewPet', { categoryId: 1 }, false],
    ['NewPet', { name: 7, categoryId: 1 }, false],
    ['Pets', [], true],
    ['Pets', [{ id: 1 }], false],
    ['Error', { code: 'x', message: 'y', status: 400 }, true],
    ['Error', { code: 'x', message: 'y', status: '400' }, false],
    ['Error', { code: 'x', status: 400 }, false],
  ] as const)('%s %j → valid %s', ([name, value, expected]) => {
    expect(validate(name, value).ok).toBe(expected);
  });
});
