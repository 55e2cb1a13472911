// `petcert capacity --emit-testrun N`: the same run as a k6-operator TestRun (k6.io/v1alpha1) with
// parallelism N. Each runner gets the execution segment i/N:(i+1)/N, sends its segment's iterations
// (each picks its key by the test-wide iteration number, so each key's load over the runners is one
// process's) and drives the canaries of its segment (load/shared/segment.ts): no canary is shared.
// The key spread is the same for N runners as for one. Runners print their results as marked lines: `petcert capacity merge` reads
// them from `kubectl logs`. The k6-operator does not aggregate runners itself.
//
// The run's network goes with it the Kubernetes way, and no secret's contents is ever in the manifest
// or the instructions: the proxies as runner env (one with credentials from a Secret by secretKeyRef),
// the private CA in a ConfigMap that SSL_CERT_DIR adds to the runner image's own roots, the client
// certificate in a Secret mounted read-only (the script reads it by path), --insecure as
// K6_INSECURE_SKIP_TLS_VERIFY. Each object the manifest names is created by a printed kubectl line.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { createRequire } from 'node:module';
import type { Network } from '../../http/network.ts';
import { PASSPHRASE_ENV } from '../../http/tls.ts';

/** yaml only when a manifest is written: loading it at start-up would cost every command ~45 ms. */
const stringify = (value: unknown): string =>
  (createRequire(import.meta.url)('yaml') as typeof import('yaml')).stringify(value);

export const TESTRUN_NAME = 'petcert-capacity';
const KEYS_DIR = '/petcert/keys';
/** The operator mounts the script's ConfigMap here; plans.json rides in the same ConfigMap. */
const SCRIPT_DIR = '/test';
const CA_DIR = '/petcert/ca';
const CLIENT_DIR = '/petcert/client-tls';

/** The objects besides the script's ConfigMap the runners read, each created by one kubectl line. */
export const TESTRUN_OBJECTS = {
  keys: `${TESTRUN_NAME}-keys`,
  proxy: `${TESTRUN_NAME}-proxy`,
  ca: `${TESTRUN_NAME}-ca`,
  client: `${TESTRUN_NAME}-client-tls`,
} as const;

/**
 * Go reads the system file (/etc/ssl/certs/ca-certificates.crt in the k6 image) and then every file of
 * each SSL_CERT_DIR folder: the mounted CA is trusted beside the image's own roots, which stay the image's.
 */
const CERT_DIRS = [CA_DIR, '/etc/ssl/certs'].join(':');

/** What of the run's network a TestRun carries: the local files by path (their contents stay local). */
export interface TestRunNetwork {
  proxy: { http: string; https: string; noProxy: string; from: { http: string; https: string } };
  /** Local PEM files of the CAs to trust: --ca-file's, NODE_EXTRA_CA_CERTS's. */
  caFiles: string[];
  client?: { certFile: string; keyFile: string; encrypted: boolean };
  insecure: boolean;
}

export function testRunNetwork(network: Network, env: Record<string, string | undefined>): TestRunNetwork {
  const client = network.tls.client;
  return {
    proxy: network.proxy,
    caFiles: [network.tls.caFile, env.NODE_EXTRA_CA_CERTS || undefined].filter((f): f is string => f !== undefined),
    ...(client
      ? { client: { certFile: client.certFile, keyFile: client.keyFile, encrypted: client.passphrase !== undefined } }
      : {}),
    insecure: network.tls.insecure,
  };
}

export interface TestRunInput {
  baseUrl: string;
  plansFile?: string;
  env: Record<string, string>;
  network?: TestRunNetwork;
}

type EnvVar =
  { name: string; value: string } | { name: string; valueFrom: { secretKeyRef: { name: string; key: string } } };

const hasCredentials = (proxy: string): boolean => {
  const url = new URL(proxy);
  return url.username !== '' || url.password !== '';
};

/** The proxy variables: a proxy with credentials is read from the proxy Secret, under the variable's name. */
function proxyEnv(n: TestRunNetwork | undefined): EnvVar[] {
  if (!n) return [];
  const { http, https, noProxy } = n.proxy;
  const one = (name: string, url: string): EnvVar[] =>
    url === ''
      ? []
      : [
          hasCredentials(url)
            ? { name, valueFrom: { secretKeyRef: { name: TESTRUN_OBJECTS.proxy, key: name } } }
            : { name, value: url },
        ];
  return [
    ...one('HTTPS_PROXY', https),
    ...one('HTTP_PROXY', http),
    ...(http || https ? [{ name: 'NO_PROXY', value: noProxy }] : []),
  ];
}

function networkEnv(n: TestRunNetwork | undefined): Record<string, string> {
  if (!n) return {};
  return {
    ...(n.caFiles.length > 0 ? { SSL_CERT_DIR: CERT_DIRS } : {}),
    ...(n.client ? { CLIENT_CERT_FILE: `${CLIENT_DIR}/tls.crt`, CLIENT_KEY_FILE: `${CLIENT_DIR}/tls.key` } : {}),
    ...(n.insecure ? { K6_INSECURE_SKIP_TLS_VERIFY: 'true' } : {}),
  };
}

function volumes(n: TestRunNetwork | undefined) {
  const list = [
    { volume: { name: 'petcert-keys', secret: { secretName: TESTRUN_OBJECTS.keys } }, mountPath: KEYS_DIR },
    ...(n && n.caFiles.length > 0
      ? [{ volume: { name: 'petcert-ca', configMap: { name: TESTRUN_OBJECTS.ca } }, mountPath: CA_DIR }]
      : []),
    ...(n?.client
      ? [
          {
            volume: { name: 'petcert-client-tls', secret: { secretName: TESTRUN_OBJECTS.client } },
            mountPath: CLIENT_DIR,
          },
        ]
      : []),
  ];
  return {
    volumes: list.map((v) => v.volume),
    volumeMounts: list.map((v) => ({ name: v.volume.name, mountPath: v.mountPath, readOnly: true })),
  };
}

export function testRunManifest(input: TestRunInput, parallelism: number): Record<string, unknown> {
  const env = {
    ...input.env,
    BASE_URL: input.baseUrl,
    KEYS_FILE: `${KEYS_DIR}/keys.txt`,
    ...(input.plansFile ? { PLANS_FILE: `${SCRIPT_DIR}/plans.json` } : {}),
    ...networkEnv(input.network),
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
        env: [...Object.entries(env).map(([name, value]) => ({ name, value })), ...proxyEnv(input.network)],
        ...volumes(input.network),
      },
    },
  };
}

/** A proxy URL with its credentials as placeholders, or the variable the user already has it in. */
function proxySource(url: string, from: string): string {
  if (/^[A-Za-z_]+$/.test(from)) return `"$${from}"`;
  const u = new URL(url);
  return `'${u.protocol}//USER:PASSWORD@${u.host}'`;
}

/** The proxy Secret's line, when a proxy has credentials: their value is never printed, only where it is. */
function proxySecretLine(n: TestRunNetwork): string | undefined {
  const { http, https, from } = n.proxy;
  const literals = [
    ...(https && hasCredentials(https) ? [`--from-literal=HTTPS_PROXY=${proxySource(https, from.https)}`] : []),
    ...(http && hasCredentials(http) ? [`--from-literal=HTTP_PROXY=${proxySource(http, from.http)}`] : []),
  ];
  if (literals.length === 0) return undefined;
  return `kubectl create secret generic ${TESTRUN_OBJECTS.proxy} ${literals.join(' ')}   # the proxy's credentials, never in the manifest`;
}

function networkLines(n: TestRunNetwork | undefined): string[] {
  if (!n) return [];
  const proxy = proxySecretLine(n);
  const ca = n.caFiles.map((f, i) => `--from-file=ca-${i + 1}.pem=${f}`).join(' ');
  const client = n.client;
  // k6 reads an unencrypted key: an encrypted one is decrypted on the way into the Secret, its passphrase from the variable.
  const key = client?.encrypted
    ? `<(openssl pkey -in ${client.keyFile} -passin env:${PASSPHRASE_ENV})`
    : client?.keyFile;
  return [
    ...(proxy ? [proxy] : []),
    ...(ca
      ? [
          `kubectl create configmap ${TESTRUN_OBJECTS.ca} ${ca}   # trusted beside the runner image's roots (SSL_CERT_DIR)`,
        ]
      : []),
    ...(client
      ? [
          `kubectl create secret tls ${TESTRUN_OBJECTS.client} --cert=${client.certFile} --key=${key}   # the client certificate, mounted read-only`,
        ]
      : []),
  ];
}

/** The commands to run, in order: the same in the file's `#` lines and on the console. */
export function testRunCommands(input: TestRunInput & { keysFile: string }, manifest = 'THIS_FILE'): string[] {
  return [
    'npm run build',
    `kubectl create configmap ${TESTRUN_NAME} --from-file=load/dist/capacity.js${input.plansFile ? ` --from-file=plans.json=${input.plansFile}` : ''}`,
    `kubectl create secret generic ${TESTRUN_OBJECTS.keys} --from-file=keys.txt=${input.keysFile}   # literal keys (env:NAME lines do not` +
      ` resolve in the cluster)`,
    ...networkLines(input.network),
    `kubectl apply -f ${manifest}`,
    `kubectl logs -l k6_cr=${TESTRUN_NAME} --tail=-1 > runners.log && petcert capacity merge runners.log`,
  ];
}

/** What the runners do that the commands do not say: TLS verification off. */
export function testRunWarnings(input: TestRunInput): string[] {
  return input.network?.insecure
    ? [
        "WARNING: TLS verification is off in the runners (--insecure: K6_INSECURE_SKIP_TLS_VERIFY=true): the target's certificate is not checked",
      ]
    : [];
}

function instructions(input: TestRunInput & { keysFile: string }, parallelism: number): string {
  return [
    `# petcert capacity: k6-operator TestRun, ${parallelism} runners (execution segments i/${parallelism}:(i+1)/${parallelism}, each key's` +
      ` load shared out between them).`,
    ...testRunWarnings(input).map((line) => `# ${line}`),
    ...testRunCommands(input).map((line) => `#   ${line}`),
    '',
  ].join('\n');
}

export function writeTestRun(input: TestRunInput & { keysFile: string }, parallelism: number, path: string): string {
  const target = resolve(path);
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, instructions(input, parallelism) + stringify(testRunManifest(input, parallelism)));
  return target;
}
