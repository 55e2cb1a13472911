// The coverage cases as data, derived from the contract: every NewPet field × every JSON type the
// schema refuses, each required field missing, the required keys in another case, fields NewPet does
// not define, strings just outside each enum, the int64 edges of every int64 field, the bounds of
// `limit`, `status` filters outside PetStatus, petIds that are not int64, and every credential §5
// refuses on every operation. Pure: what each case expects is named by its `kind`; coverage/cases.ts
// binds kinds to the checks that judge them.
import { contract, LIMIT } from '../../spec/contract.ts';
import { validate } from '../../spec/validators.ts';
import { NAME_PREFIX } from '../arbitraries/names.ts';
import { CLIENT_ID } from '../arbitraries/new-pet.ts';
import { fieldsOf, extensionFields, operations, parameterSchema, validValue, type Field } from './schema.ts';
import { CASE_CHANGES, enumOutsiders, int64Edges, valuesOfEveryType } from './values.ts';

export const FAMILIES = {
  'body-type': 'every NewPet field × every JSON type its schema refuses (§2.2, §4.2)',
  'body-required': 'each required NewPet field missing, and all of them (§4.2 rule 1)',
  'body-key-case':
    'the required NewPet keys with their case changed: JSON keys are case-sensitive, so the fields are missing (§4.2 rule 1)',
  'body-unknown': 'fields NewPet does not define (a gap: recorded)',
  'body-enum': 'enum fields: each member, and strings just outside the set (§2.3)',
  'body-int64': 'int64 fields at ±2^63 and 2^53 ± 1 (§2.2)',
  limit: '`limit` at min−1, min, max, max+1, non-integer, empty, repeated (§4.1, §8.4)',
  'status-filter': '`status` filters just outside PetStatus (§4.1 rule 1)',
  'pet-id': 'petIds that are not int64, and the int64 edges (§4.3)',
  credentials: 'missing, other-scheme and invalid credentials on every operation (§5)',
  'unspecified-endpoints': 'endpoints §4.4 names without their shapes (recorded)',
} as const;

export type Family = keyof typeof FAMILIES;

export type CredentialKind = 'missing' | 'other-scheme' | 'bare-token' | 'empty-token' | 'unknown-token';

export type Expectation =
  /** §4.2: an invalid value → 400. */
  | { kind: 'create-refused'; body: string }
  /** §4.2 rule 1: a required field missing → 400. */
  | { kind: 'create-missing'; body: string }
  /** A valid NewPet → 201 echoing it. */
  | { kind: 'create-accepted'; pet: { name: string; categoryId: number; status?: string } }
  /** A valid int64 written exactly (beyond 2^53 too) → 201 echoing it exactly, or 400 for an unknown category (GAPS.md). */
  | { kind: 'create-int64'; field: string; text: string }
  /** null for an optional field: read as absent or refused (conformance/README.md: recorded). */
  | { kind: 'create-null-optional'; field: string; body: string }
  /** A field NewPet does not define (GAPS.md: ignored, echoed or refused — recorded). */
  | { kind: 'create-unknown-field'; field: string; body: string }
  | { kind: 'list-limit-outside'; values: string[] }
  | { kind: 'list-limit-inside'; limit: number }
  | { kind: 'list-status-outside'; value: string }
  | { kind: 'get-bad-id'; id: string }
  | { kind: 'get-absent'; id: string }
  | { kind: 'credentials'; operationId: string; credential: CredentialKind }
  | { kind: 'unspecified-endpoint'; method: string; path: string; withKey: boolean };

export interface CaseSpec {
  /** Unique, shell-safe: `--case NAME` replays it. */
  name: string;
  family: Family;
  /** The schema or spec rule the case mutates, for the report. */
  rule: string;
  expect: Expectation;
}

const MARK = '"@@petcert-value@@"';

/** A JSON body: the valid base with one field set to raw JSON text (int64 edges have no JS value). */
function bodyWith(base: Record<string, unknown>, field: string, json: string | undefined): string {
  const pet = { ...base };
  if (json === undefined) {
    delete pet[field];
    return JSON.stringify(pet);
  }
  return JSON.stringify({ ...pet, [field]: '@@petcert-value@@' }).replace(MARK, json);
}

const describeType = (f: Field): string =>
  f.schema.enum
    ? `one of ${f.schema.enum.join(', ')}`
    : `an ${f.schema.type}${f.schema.format ? ` (${f.schema.format})` : ''}`.replace(/^an s/, 'a s');

/**
 * The valid required fields, strings labelled: bodies that must be refused share the label `invalid`
 * (never created by a correct server), and each body that may create a pet has its own, so a server
 * that refuses names already taken (GAPS.md) never sees a refusal for the name instead of the value.
 */
function baseOf(fields: Field[], label = 'invalid'): Record<string, unknown> {
  return Object.fromEntries(
    fields.filter((f) => f.required).map((f) => [f.name, validValue(f.schema, `${NAME_PREFIX}coverage-${label}`)]),
  );
}

function bodyTypeCases(fields: Field[], base: Record<string, unknown>): CaseSpec[] {
  return fields.flatMap((f) =>
    valuesOfEveryType(validValue(f.schema, `${NAME_PREFIX}coverage-invalid`))
      // The schema decides which types the field refuses: no list of wrong types per field.
      .filter((v) => !validate('NewPet', { ...base, [f.name]: v.value }).ok)
      .map((v): CaseSpec => {
        const rule = `NewPet.${f.name} is ${describeType(f)}: sent ${JSON.stringify(v.value)} (${v.type})`;
        const lenient = v.type === 'null' && !f.required;
        const body = bodyWith(lenient ? baseOf(fields, `null-${f.name}`) : base, f.name, JSON.stringify(v.value));
        const expect: Expectation = lenient
          ? { kind: 'create-null-optional', field: f.name, body }
          : { kind: 'create-refused', body };
        return { name: `NewPet.${f.name}:type=${v.type}`, family: 'body-type', rule, expect };
      }),
  );
}

function requiredCases(fields: Field[], base: Record<string, unknown>): CaseSpec[] {
  const required = fields.filter((f) => f.required);
  const each = required.map((f): CaseSpec => ({
    name: `NewPet.${f.name}:missing`,
    family: 'body-required',
    rule: `NewPet.${f.name} is required: left out`,
    expect: { kind: 'create-missing', body: bodyWith(base, f.name, undefined) },
  }));
  const all: CaseSpec = {
    name: 'NewPet:all-required-missing',
    family: 'body-required',
    rule: `NewPet requires ${required.map((f) => f.name).join(', ')}: sent {}`,
    expect: { kind: 'create-missing', body: '{}' },
  };
  return [...each, all];
}

/**
 * The required keys renamed by each case change (`{"NAME": …, "CATEGORYID": …}`): a server that matches
 * keys case-insensitively creates a pet from a body that lacks every required field. A change that
 * leaves every key as it is, or turns one into another field's name, says nothing of case and is dropped.
 */
function keyCaseCases(fields: Field[], base: Record<string, unknown>): CaseSpec[] {
  const names = new Set(fields.map((f) => f.name));
  const required = fields.filter((f) => f.required).map((f) => f.name);
  return CASE_CHANGES.flatMap(({ label, change }): CaseSpec[] => {
    const renamed = required.map((k) => [k, change(k)] as const);
    if (renamed.every(([k, c]) => k === c) || renamed.some(([k, c]) => k !== c && names.has(c))) return [];
    const body = JSON.stringify(Object.fromEntries(renamed.map(([k, c]) => [c, base[k]])));
    const sent = renamed.map(([, c]) => c).join(', ');
    return [
      {
        name: `NewPet:keys=${label}`,
        family: 'body-key-case',
        rule: `NewPet requires ${required.join(', ')} (JSON keys are case-sensitive): sent ${sent}`,
        expect: { kind: 'create-missing', body },
      },
    ];
  });
}

function unknownFieldCases(fields: Field[]): CaseSpec[] {
  return [...extensionFields('NewPet'), 'petcertUnknownField'].map((field) => ({
    name: `NewPet:unknown-field=${field}`,
    family: 'body-unknown',
    rule: `NewPet defines no field ${field}: sent one`,
    expect: {
      kind: 'create-unknown-field',
      field,
      body: bodyWith(baseOf(fields, `unknown-${field}`), field, JSON.stringify(field === 'id' ? CLIENT_ID : 'petcert')),
    },
  }));
}

function enumCases(fields: Field[], base: Record<string, unknown>): CaseSpec[] {
  return fields.flatMap((f) => {
    const members = f.schema.enum;
    if (!members) return [];
    const inside = members.map((m): CaseSpec => ({
      name: `NewPet.${f.name}:member-${m}`,
      family: 'body-enum',
      rule: `NewPet.${f.name} is one of ${members.join(', ')}: sent ${JSON.stringify(m)}`,
      expect: {
        kind: 'create-accepted',
        pet: { ...(baseOf(fields, `${f.name}-${m}`) as { name: string; categoryId: number }), [f.name]: m },
      },
    }));
    const outside = enumOutsiders(members).map((o): CaseSpec => ({
      name: `NewPet.${f.name}:${o.label}`,
      family: 'body-enum',
      rule: `NewPet.${f.name} is one of ${members.join(', ')}: sent ${JSON.stringify(o.value)}`,
      expect: { kind: 'create-refused', body: bodyWith(base, f.name, JSON.stringify(o.value)) },
    }));
    return [...inside, ...outside];
  });
}

function int64Cases(fields: Field[], base: Record<string, unknown>): CaseSpec[] {
  return fields
    .filter((f) => f.schema.format === 'int64')
    .flatMap((f) =>
      int64Edges().map((e): CaseSpec => ({
        name: `NewPet.${f.name}:${e.label}`,
        family: 'body-int64',
        rule: `NewPet.${f.name} is an int64: sent ${e.text}${e.inRange ? '' : ' (outside int64)'}`,
        expect: e.inRange
          ? { kind: 'create-int64', field: f.name, text: e.text }
          : { kind: 'create-refused', body: bodyWith(base, f.name, e.text) },
      })),
    );
}

function limitCases(): CaseSpec[] {
  const outside = (name: string, values: string[]): CaseSpec => ({
    name: `listPets.limit:${name}`,
    family: 'limit',
    rule: `limit is an integer in ${LIMIT.min}–${LIMIT.max}: sent ${values.map((v) => `limit=${v}`).join('&')}`,
    expect: { kind: 'list-limit-outside', values },
  });
  const inside = (name: string, limit: number): CaseSpec => ({
    name: `listPets.limit:${name}`,
    family: 'limit',
    rule: `limit is an integer in ${LIMIT.min}–${LIMIT.max}: sent limit=${limit}`,
    expect: { kind: 'list-limit-inside', limit },
  });
  return [
    outside('min-1', [String(LIMIT.min - 1)]),
    inside('min', LIMIT.min),
    inside('max', LIMIT.max),
    outside('max+1', [String(LIMIT.max + 1)]),
    outside('non-integer', [`${LIMIT.min}.5`]),
    outside('empty', ['']),
    outside('repeated', [String(LIMIT.min), String(LIMIT.max)]),
  ];
}

function statusFilterCases(): CaseSpec[] {
  const members = parameterSchema('/pets', 'status').enum ?? [];
  return enumOutsiders(members).map((o) => ({
    name: `listPets.status:${o.label}`,
    family: 'status-filter',
    rule: `status filters by one of ${members.join(', ')}: sent status=${JSON.stringify(o.value)}`,
    expect: { kind: 'list-status-outside', value: o.value },
  }));
}

function petIdCases(): CaseSpec[] {
  const schema = parameterSchema('/pets/{petId}', 'petId');
  const rule = (sent: string) => `petId is an ${schema.type} (${schema.format}): sent ${sent}`;
  const notIntegers = [
    { label: 'non-integer', id: '1.5' },
    { label: 'not-a-number', id: 'abc' },
  ].map((v): CaseSpec => ({
    name: `getPet.petId:${v.label}`,
    family: 'pet-id',
    rule: rule(v.id),
    expect: { kind: 'get-bad-id', id: v.id },
  }));
  const edges = schema.format === 'int64' ? int64Edges().filter((e) => !e.label.startsWith('2^53')) : [];
  const atEdges = edges.map((e): CaseSpec => ({
    name: `getPet.petId:${e.label}`,
    family: 'pet-id',
    rule: rule(e.text),
    // A valid int64 no pet has is a 404 (§4.3); one outside int64 is not an id at all (GAPS.md: 400 or 404).
    expect: e.inRange ? { kind: 'get-absent', id: e.text } : { kind: 'get-bad-id', id: e.text },
  }));
  return [...notIntegers, ...atEdges];
}

/** What §5 (HTTP bearer) refuses: no credential, another scheme, the token without its scheme, an empty one, an unknown one. */
const CREDENTIAL_KINDS: Record<string, CredentialKind[]> = {
  'http bearer': ['missing', 'other-scheme', 'bare-token', 'empty-token', 'unknown-token'],
};

function credentialCases(): CaseSpec[] {
  const schemes = contract.components.securitySchemes as Record<string, { type: string; scheme?: string }>;
  return operations().flatMap((op) =>
    op.schemes.flatMap((name) => {
      const s = schemes[name]!;
      const kinds = CREDENTIAL_KINDS[`${s.type} ${s.scheme ?? ''}`.trim()];
      if (!kinds) throw new Error(`no credential cases for security scheme ${name} (${s.type} ${s.scheme ?? ''})`);
      return kinds.map((credential): CaseSpec => ({
        name: `${op.operationId}.credentials:${credential}`,
        family: 'credentials',
        rule: `${op.method} ${op.path} requires ${s.scheme ?? s.type} credentials (§5): sent ${credential}`,
        expect: { kind: 'credentials', operationId: op.operationId, credential },
      }));
    }),
  );
}

function unspecifiedCases(): CaseSpec[] {
  return contract['x-petcert-unspecified'].flatMap((p) =>
    [true, false].map((withKey): CaseSpec => ({
      name: `${p.method.toUpperCase()}${p.path}:${withKey ? 'with-key' : 'without-key'}`,
      family: 'unspecified-endpoints',
      rule: `${p.section} names ${p.method.toUpperCase()} ${p.path} without its shape: sent ${withKey ? 'with' : 'without'} the key`,
      expect: { kind: 'unspecified-endpoint', method: p.method.toUpperCase(), path: p.path, withKey },
    })),
  );
}

/** Every coverage case, in a fixed order. */
export function deriveCases(): CaseSpec[] {
  const fields = fieldsOf('NewPet');
  const base = baseOf(fields);
  return [
    ...bodyTypeCases(fields, base),
    ...requiredCases(fields, base),
    ...keyCaseCases(fields, base),
    ...unknownFieldCases(fields),
    ...enumCases(fields, base),
    ...int64Cases(fields, base),
    ...limitCases(),
    ...statusFilterCases(),
    ...petIdCases(),
    ...credentialCases(),
    ...unspecifiedCases(),
  ];
}
