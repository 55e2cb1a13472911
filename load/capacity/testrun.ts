// `petcert capacity --emit-testrun N`: the same run as a k6-operator TestRun (k6.io/v1alpha1) with
// parallelism N. Each runner gets the execution segment i/N:(i+1)/N, sends its segment's iterations
// (each picks its key by the test-wide iteration number, so each key's load over the runners is one
// process's) and drives the canaries of its segment (load/shared/segment.ts): no canary is shared.
// The key spread is the same for N runners as for one. Runners print their results as marked lines: `petcert capacity merge` reads
// them from `kubectl logs`. The k6-operator does not aggregate runners itself.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { createRequire } from 'node:module';

/** yaml only when a manifest is written: loading it at start-up would cost every command ~45 ms. */
const stringify = (value: unknown): string =>
  (createRequire(import.meta.url)('yaml') as typeof import('yaml')).stringify(value);

export const TESTRUN_NAME = 'petcert-capacity';
const KEYS_DIR = '/petcert/keys';
/** The operator mounts the script's ConfigMap here; plans.json rides in the same ConfigMap. */
const SCRIPT_DIR = '/test';

export interface TestRunInput {
  baseUrl: string;
  plansFile?: string;
  env: Record<string, string>;
}

export function testRunManifest(input: TestRunInput, parallelism: number): Record<string, unknown> {
  const env = {
    ...input.env,
    BASE_URL: input.baseUrl,
    KEYS_FILE: `${KEYS_DIR}/keys.txt`,
    ...(input.plansFile ? { PLANS_FILE: `${SCRIPT_DIR}/plans.json` } : {}),
  };
  return {
    apiVersion: 'k6.io/v1alpha1',
    kind: 'TestRun',
    metadata: { name: TESTRUN_NAME },
    spec: {
      parallelism,
      script: { configMap: { name: TESTRUN_NAME, file: 'capacity.js' } },
      arguments: `--tag testid=${TESTRUN_NAME} --log-format raw`,
      runner: {
        env: Object.entries(env).map(([name, value]) => ({ name, value })),
        volumes: [{ name: 'petcert-keys', secret: { secretName: `${TESTRUN_NAME}-keys` } }],
        volumeMounts: [{ name: 'petcert-keys', mountPath: KEYS_DIR, readOnly: true }],
      },
    },
  };
}

function instructions(input: TestRunInput & { keysFile: string }, parallelism: number): string {
  return [
    `# petcert capacity: k6-operator TestRun, ${parallelism} runners (execution segments i/${parallelism}:(i+1)/${parallelism}, each key's` +
      ` load shared out between them).`,
    '#   npm run build',
    `#   kubectl create configmap ${TESTRUN_NAME} --from-file=load/dist/capacity.js${input.plansFile ? ` --from-file=plans.json=${input.plansFile}` : ''}`,
    `#   kubectl create secret generic ${TESTRUN_NAME}-keys --from-file=keys.txt=${input.keysFile}   # literal keys (env:NAME lines do not` +
      ` resolve in the cluster)`,
    '#   kubectl apply -f THIS_FILE',
    `#   kubectl logs -l k6_cr=${TESTRUN_NAME} --tail=-1 > runners.log && petcert capacity merge runners.log`,
    '',
  ].join('\n');
}

export function writeTestRun(input: TestRunInput & { keysFile: string }, parallelism: number, path: string): string {
  const target = resolve(path);
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, instructions(input, parallelism) + stringify(testRunManifest(input, parallelism)));
  return target;
}
