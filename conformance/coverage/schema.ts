// What the coverage phase reads from the contract: NewPet's fields (type, format, enum, required),
// the operations and their security, the parameters of GET /pets and GET /pets/{petId}. Everything
// comes from spec/contract.ts (spec/openapi.yaml); a field or operation added there gets its cases.
import { contract } from '../../spec/contract.ts';

export type JsonType = 'null' | 'boolean' | 'integer' | 'number' | 'string' | 'array' | 'object';

export interface Schema {
  type?: string;
  format?: string;
  enum?: readonly string[];
  $ref?: string;
  properties?: Record<string, Schema>;
  required?: readonly string[];
  minimum?: number;
  maximum?: number;
  allOf?: readonly Schema[];
}

const SCHEMA_REF = '#/components/schemas/';
const schemas = contract.components.schemas as unknown as Record<string, Schema>;

/** A schema with its local $ref followed (the contract only refers to components/schemas). */
export function resolved(schema: Schema): Schema {
  if (!schema.$ref) return schema;
  if (!schema.$ref.startsWith(SCHEMA_REF)) throw new Error(`unsupported $ref ${schema.$ref}`);
  return resolved(schemas[schema.$ref.slice(SCHEMA_REF.length)]!);
}

export interface Field {
  name: string;
  schema: Schema;
  required: boolean;
}

export function fieldsOf(schemaName: string): Field[] {
  const s = resolved(schemas[schemaName]!);
  return Object.entries(s.properties ?? {}).map(([name, schema]) => ({
    name,
    schema: resolved(schema),
    required: (s.required ?? []).includes(name),
  }));
}

/** Fields of the schemas that extend this one (allOf) and this one lacks: Pet's `id` for NewPet. */
export function extensionFields(schemaName: string): string[] {
  const own = new Set(fieldsOf(schemaName).map((f) => f.name));
  const ref = `${SCHEMA_REF}${schemaName}`;
  const extensions = Object.values(schemas).filter((s) => s.allOf?.some((part) => part.$ref === ref));
  const names = extensions.flatMap((s) => s.allOf!.flatMap((part) => Object.keys(resolved(part).properties ?? {})));
  return [...new Set(names.filter((n) => !own.has(n)))];
}

/**
 * A valid value for a field: the first enum member, 1 for an integer, a recognisable text for a string
 * (petcert's pets are named petcert-…: the API has no delete).
 */
export function validValue(schema: Schema, text: string): unknown {
  if (schema.enum) return schema.enum[0];
  if (schema.type === 'integer') return 1;
  if (schema.type === 'string') return text;
  throw new Error(`no valid value for a ${schema.type} field`);
}

export interface Operation {
  operationId: string;
  method: string;
  path: string;
  /** The security schemes it requires (§5: every operation, bearer). */
  schemes: string[];
}

export function operations(): Operation[] {
  return Object.entries(contract.paths).flatMap(([path, item]) =>
    Object.entries(
      item as Record<string, { operationId: string; security?: ReadonlyArray<Record<string, unknown>> }>,
    ).map(([method, op]) => ({
      operationId: op.operationId,
      method: method.toUpperCase(),
      path,
      schemes: (op.security ?? contract.security).flatMap((s) => Object.keys(s)),
    })),
  );
}

export function parameterSchema(path: string, name: string): Schema {
  const item = (
    contract.paths as unknown as Record<
      string,
      { get: { parameters: ReadonlyArray<{ name: string; schema: Schema }> } }
    >
  )[path]!;
  const p = item.get.parameters.find((q) => q.name === name);
  if (!p) throw new Error(`no parameter ${name} on GET ${path}`);
  return resolved(p.schema);
}
