// The k6-operator TestRun CRD (v1.6.0, Apache-2.0) as a validator: read from ../shared/k6-operator beside
// the repository (never copied in), its openAPIV3Schema compiled with Ajv. As `kubectl apply` with strict
// field validation does, a field the schema does not declare is an error (the API server would otherwise
// prune it silently: a misspelt `paralelism` would run one runner).
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv, type AnySchemaObject, type ValidateFunction } from 'ajv';
import { parse } from 'yaml';

export const TESTRUN_CRD = fileURLToPath(
  new URL('../../../shared/k6-operator/k6.io_testruns.v1.6.0.yaml', import.meta.url),
);
export const hasTestRunCrd = (): boolean => existsSync(TESTRUN_CRD);

type Schema = AnySchemaObject & {
  properties?: Record<string, Schema>;
  items?: Schema;
  additionalProperties?: boolean | Schema;
};

/** Kubernetes' structural-schema rule: an object lists its fields; any other is unknown (unless preserved). */
function strictFields(schema: Schema): Schema {
  const out: Schema = { ...schema };
  if (schema.properties) {
    out.properties = Object.fromEntries(Object.entries(schema.properties).map(([k, v]) => [k, strictFields(v)]));
    if (schema.additionalProperties === undefined && !schema['x-kubernetes-preserve-unknown-fields'])
      out.additionalProperties = false;
  }
  if (schema.items) out.items = strictFields(schema.items);
  if (typeof schema.additionalProperties === 'object')
    out.additionalProperties = strictFields(schema.additionalProperties);
  return out;
}

let compiled: ValidateFunction | undefined;

/** The v1alpha1 TestRun schema, unknown fields refused. Compiled once (≈ 2 s). */
export function testRunValidator(): ValidateFunction {
  if (compiled) return compiled;
  const crd = parse(readFileSync(TESTRUN_CRD, 'utf8')) as {
    spec: { versions: Array<{ name: string; schema: { openAPIV3Schema: Schema } }> };
  };
  const version = crd.spec.versions.find((v) => v.name === 'v1alpha1');
  if (!version) throw new Error(`${TESTRUN_CRD}: no v1alpha1 version`);
  // int-or-string quantities carry a pattern without a type: legal in Kubernetes, "strictTypes" in Ajv.
  const ajv = new Ajv({
    allErrors: true,
    strictTypes: false,
    formats: { int32: true, int64: true, 'date-time': true },
  });
  for (const keyword of [
    'x-kubernetes-list-type',
    'x-kubernetes-list-map-keys',
    'x-kubernetes-map-type',
    'x-kubernetes-int-or-string',
    'x-kubernetes-preserve-unknown-fields',
  ])
    ajv.addKeyword(keyword);
  return (compiled = ajv.compile(strictFields(version.schema.openAPIV3Schema)));
}
