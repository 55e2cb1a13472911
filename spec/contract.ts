// The contract as typed data: every bound, enum, plan figure and type petcert uses comes from here,
// and here only reads spec/openapi.yaml (via contract.gen.ts). Pure: safe in Node, the server and k6.
import type { FromSchema } from 'json-schema-to-ts';
import { contract } from './contract.gen.ts';

export { contract };

type Components = (typeof contract)['components'];
type Schemas = Components['schemas'];
// Local `#/components/...` references resolve against a root that carries the components.
type Rooted<S> = S & { components: Components };

export type PetStatus = FromSchema<Rooted<Schemas['PetStatus']>>;
export type NewPet = FromSchema<Rooted<Schemas['NewPet']>>;
export type Pet = FromSchema<Rooted<Schemas['Pet']>>;
export type Pets = FromSchema<Rooted<Schemas['Pets']>>;
export type ApiError = FromSchema<Rooted<Schemas['Error']>>;

export const PET_STATUSES: readonly PetStatus[] = contract.components.schemas.PetStatus.enum;

const listParameters = contract.paths['/pets'].get.parameters;
const limitSchema = listParameters.find((p) => p.name === 'limit')!.schema as {
  minimum: number;
  maximum: number;
  default: number;
};

/** §4.1/§8.4: `limit` on GET /pets. */
export const LIMIT = {
  min: limitSchema.minimum,
  max: limitSchema.maximum,
  default: limitSchema.default,
} as const;

const getPet = contract.paths['/pets/{petId}'].get;

/** §4.3/§9: GET /pets/{petId} is deprecated and removed on this date. */
export const GET_PET_DEPRECATION = {
  deprecated: getPet.deprecated,
  removalDate: getPet['x-removal-date'],
  replacement: getPet['x-replacement'],
} as const;

/** §1: the environments the specification names, keyed by the extension in openapi.yaml. */
export const ENVIRONMENTS = contract.servers.map((s) => ({
  environment: s['x-petcert-environment'],
  url: s.url.replace('{host}', s.variables.host.default),
}));

export const RATE_LIMIT_HEADERS = {
  limit: 'x-ratelimit-limit',
  remaining: 'x-ratelimit-remaining',
  reset: 'x-ratelimit-reset',
  retryAfter: 'retry-after',
} as const;

// The header names above must be the ones the contract declares; contract.test.ts asserts it.
export const DECLARED_HEADERS = Object.keys(contract.components.headers);

/** Schema names Ajv compiles (spec/validators.ts). */
export const SCHEMA_NAMES = ['Pet', 'NewPet', 'Pets', 'Error', 'PetStatus'] as const;
export type SchemaName = (typeof SCHEMA_NAMES)[number];
