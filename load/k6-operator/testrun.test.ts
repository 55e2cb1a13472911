// load/k6-operator/testrun.yaml is a valid TestRun for k6-operator v1.6.0: checked against the CRD's
// openAPIV3Schema read from ../shared/k6-operator (testkit/k6/testrun-crd.ts), unknown fields refused.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { k6Scripts } from '../../scripts/build-k6.ts';
import { IN_CI } from '../../testkit/k6/k6.ts';
import { hasTestRunCrd, TESTRUN_CRD, testRunValidator } from '../../testkit/k6/testrun-crd.ts';

// In CI the clone has shared/ beside it: a missing CRD fails there, and is a plain skip elsewhere.
const skip = !hasTestRunCrd() && !IN_CI;
const title = (text: string) => (skip ? `${text} (skipped: ${TESTRUN_CRD} is not here)` : text);

const manifest = parse(readFileSync(fileURLToPath(new URL('./testrun.yaml', import.meta.url)), 'utf8')) as {
  apiVersion: string;
  kind: string;
  metadata: { name?: string };
  spec: { parallelism: number; script: { configMap?: { name: string; file?: string } }; arguments?: string };
};

describe('load/k6-operator/testrun.yaml', () => {
  it.skipIf(skip)(title('is valid against the TestRun CRD of k6-operator v1.6.0'), () => {
    const validate = testRunValidator();
    expect(validate(manifest), JSON.stringify(validate.errors, null, 2)).toBe(true);
    expect(manifest).toMatchObject({
      apiVersion: 'k6.io/v1alpha1',
      kind: 'TestRun',
      metadata: { name: expect.stringMatching(/^[a-z0-9-]+$/) },
    });
  });

  it.skipIf(skip)(
    title('the validator bites: a misspelt field, a wrong type and a configMap without a name are refused'),
    () => {
      const validate = testRunValidator();
      const spec = manifest.spec;
      for (const bad of [
        { ...manifest, spec: { ...spec, paralelism: 4 } },
        { ...manifest, spec: { ...spec, parallelism: '4' } },
        { ...manifest, spec: { ...spec, script: { configMap: { file: 'capacity.js' } } } },
      ]) {
        expect(validate(bad), JSON.stringify(bad.spec)).toBe(false);
      }
    },
  );

  it('ships a bundled .js script that `npm run build` produces, and no flag that would replace its scenarios or segments', () => {
    const file = manifest.spec.script.configMap?.file ?? '';
    expect(file).toMatch(/\.js$/);
    expect(k6Scripts()).toContain(file.replace(/\.js$/, '.ts'));
    expect(manifest.spec.parallelism).toBeGreaterThan(1);
    // --vus/--iterations/--duration/--stage replace the scenarios (the scripts refuse to run); the operator sets the segments.
    expect(manifest.spec.arguments ?? '').not.toMatch(
      /--(vus|iterations|duration|stage|execution-segment)\b|(^|\s)-[uids]\b/,
    );
  });
});
