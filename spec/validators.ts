// Ajv validators compiled once from the contract. Node only: Ajv generates code with `new Function`.
// Ajv is loaded (synchronously: it is CommonJS) and compiled on first use: loading it costs a third of
// petcert's start-up, and `--help`, `serve` or a usage error validate nothing.
import { isInt64Double } from './int64.ts';
import { createRequire } from 'node:module';
import type { Ajv2020, ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { contract, type SchemaName, type Pet, type NewPet, type Pets, type ApiError } from './contract.ts';

const require = createRequire(import.meta.url);

const CONTRACT_ID = 'https://petcert.dev/animal-store-v1/openapi.json';

function compileAll(): Record<SchemaName, ValidateFunction> {
  // strict: false because an OpenAPI document carries keywords (info, paths, x-*) Ajv does not know.
  const { Ajv2020: AjvClass } = require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
  const addFormats = require('ajv-formats') as { default: (ajv: Ajv2020) => Ajv2020 };
  const ajv = new AjvClass({ strict: false, allErrors: true });
  addFormats.default(ajv);
  // ajv-formats' int64 only checks Number.isInteger. A parsed JSON number cannot tell 2^63-1 from 2^63
  // (both become 2^63), so the closest honest check on parsed values is |v| <= 2^63; requests whose
  // exact int64 range matters are checked on their source text, not here.
  ajv.addFormat('int64', { type: 'number', validate: isInt64Double });
  ajv.addSchema({ $id: CONTRACT_ID, components: contract.components });
  const compile = (name: SchemaName) => ajv.getSchema(`${CONTRACT_ID}#/components/schemas/${name}`)!;
  return {
    Pet: compile('Pet'),
    NewPet: compile('NewPet'),
    Pets: compile('Pets'),
    Error: compile('Error'),
    PetStatus: compile('PetStatus'),
  };
}

/** Compiled on first use: a command that validates nothing (`--help`, a usage error) never pays for it. */
let compiledOnce: Record<SchemaName, ValidateFunction> | undefined;
const validators = (): Record<SchemaName, ValidateFunction> => (compiledOnce ??= compileAll());

export interface Validation {
  ok: boolean;
  errors: string[];
}

function describe(errors: ErrorObject[] | null | undefined): string[] {
  return (errors ?? []).map((e) => `${e.instancePath || '(root)'} ${e.message ?? 'is invalid'}`);
}

export function validate(name: SchemaName, value: unknown): Validation {
  const fn = validators()[name];
  const ok = fn(value) as boolean;
  return { ok, errors: ok ? [] : describe(fn.errors) };
}

export const isPet = (v: unknown): v is Pet => validators().Pet(v) as boolean;
export const isNewPet = (v: unknown): v is NewPet => validators().NewPet(v) as boolean;
export const isPets = (v: unknown): v is Pets => validators().Pets(v) as boolean;
export const isApiError = (v: unknown): v is ApiError => validators().Error(v) as boolean;
