// Ajv validators compiled once from the contract. Node only: Ajv generates code with `new Function`.
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { contract, type SchemaName, type Pet, type NewPet, type Pets, type ApiError } from './contract.ts';

// ajv-formats is CommonJS; under NodeNext its default export arrives wrapped.
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

const CONTRACT_ID = 'https://petcert.dev/animal-store-v1/openapi.json';

function compileAll(): Record<SchemaName, ValidateFunction> {
  // strict: false because an OpenAPI document carries keywords (info, paths, x-*) Ajv does not know.
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  // ajv-formats' int64 only checks Number.isInteger. A parsed JSON number cannot tell 2^63-1 from 2^63
  // (both become 2^63), so the closest honest check on parsed values is |v| <= 2^63; requests whose
  // exact int64 range matters are checked on their source text, not here.
  ajv.addFormat('int64', { type: 'number', validate: (v: number) => Number.isInteger(v) && Math.abs(v) <= 2 ** 63 });
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
