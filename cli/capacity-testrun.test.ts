// The emitted k6-operator TestRun validates against the TestRun CRD's openAPIV3Schema (k6-operator
// v1.6.0), carries the run's settings, and its key spread was checked (the same for N runners as for one).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ConfigError } from '../core/errors.ts';
import { capacityAction, prepare, type CapacityFlags } from './capacity.ts';
import { testRunManifest } from '../load/capacity/testrun.ts';

const crdPath = fileURLToPath(new URL('../../shared/k6-operator/k6.io_testruns.v1.6.0.yaml', import.meta.url));
const crd = parse(readFileSync(crdPath, 'utf8')) as {
  spec: { versions: Array<{ name: string; schema: { openAPIV3Schema: object } }> };
};
const schema = crd.spec.versions.find((v) => v.name === 'v1alpha1')!.schema.openAPIV3Schema;
// Kubernetes' structural schemas use x-kubernetes-* keywords and int-or-string formats Ajv does not know.
const validate = new Ajv({ strict: false, validateFormats: false, allErrors: true }).compile(schema);

const dir = mkdtempSync(join(tmpdir(), 'petcert-testrun-'));
const keysFile = join(dir, 'keys.txt');
writeFileSync(keysFile, Array.from({ length: 24 }, (_, i) => `free=k${i}`).join('\n'));
const plansFile = join(dir, 'plans.json');
writeFileSync(
  plansFile,
  JSON.stringify({ windows: { minuteSeconds: 10, daySeconds: 86400 }, plans: { free: { perDay: 1_000_000 } } }),
);
const flags = (over: Partial<CapacityFlags> = {}): CapacityFlags => ({
  baseUrl: 'http://127.0.0.1:8080/v1',
  keysFile,
  plans: plansFile,
  mix: 'free=10',
  canaries: true,
  calibrate: true,
  reportDir: dir,
  failOn: 'must',
  ...over,
});

describe('--emit-testrun N', () => {
  it('writes a TestRun the CRD schema accepts, with parallelism N and the run settings', async () => {
    const out: string[] = [];
    // Canaries off: this test is about the manifest (the key spread and canaries: the test below).
    const code = await capacityAction(
      flags({ emitTestrun: '4', testrunOut: join(dir, 'testrun.yaml'), stepSeconds: '30', canaries: false }),
      { log: (l) => out.push(l), err: (l) => out.push(l) },
      {},
    );
    expect(code).toBe(0);
    const doc = parse(readFileSync(join(dir, 'testrun.yaml'), 'utf8')) as Record<string, any>;
    expect(validate(doc), JSON.stringify(validate.errors)).toBe(true);
    expect(doc).toMatchObject({
      apiVersion: 'k6.io/v1alpha1',
      kind: 'TestRun',
      spec: { parallelism: 4, script: { configMap: { name: 'petcert-capacity', file: 'capacity.js' } } },
    });
    const env = Object.fromEntries(
      (doc.spec.runner.env as Array<{ name: string; value: string }>).map((e) => [e.name, e.value]),
    );
    expect(env).toMatchObject({
      BASE_URL: 'http://127.0.0.1:8080/v1',
      MIX: 'free=10',
      STEP_SECONDS: '30',
      KEYS_FILE: '/petcert/keys/keys.txt',
      PLANS_FILE: '/test/plans.json',
    });
    expect(readFileSync(join(dir, 'testrun.yaml'), 'utf8')).not.toMatch(/\bk1\b/); // keys go in a Secret, never the manifest
    expect(out.join('\n')).toContain('petcert capacity merge');
  });

  it('the schema bites: a manifest without a script or with a string parallelism is refused', () => {
    const doc = testRunManifest({ baseUrl: 'http://127.0.0.1:1/v1', env: {} }, 2) as { spec: Record<string, unknown> };
    expect(validate(doc)).toBe(true);
    expect(validate({ ...doc, spec: { ...doc.spec, parallelism: '2' } })).toBe(false);
    const { script: _script, ...noScript } = doc.spec;
    expect(validate({ ...doc, spec: noScript })).toBe(false);
  });

  it('checks the key spread, and 7 runners need no more keys than one (they share every key; owning whole keys, they needed 28)', async () => {
    // 10 customers × 6 req/s × 2 = 120 req/s over keys of 5.4: 23 keys, whatever the runners.
    expect(() => prepare(flags(), {})).not.toThrow();
    const say = { log: () => undefined, err: () => undefined };
    expect(await capacityAction(flags({ emitTestrun: '7', testrunOut: join(dir, 'seven.yaml') }), say, {})).toBe(0);
    const tooFew = join(dir, 'keys-22.txt');
    writeFileSync(tooFew, Array.from({ length: 22 }, (_, i) => `free=k${i}`).join('\n'));
    expect(() => prepare(flags({ keysFile: tooFew }), {})).toThrow(ConfigError);
    expect(() => prepare(flags({ keysFile: tooFew }), {})).toThrow('add 1 more free key (23 needed, 22 given)');
  });
});
