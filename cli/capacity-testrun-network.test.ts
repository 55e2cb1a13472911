// `--emit-testrun N` carries the run's network (proxy, private CA, client certificate, --insecure) the
// Kubernetes way: the manifest validates against the TestRun CRD (k6-operator v1.6.0) with each setting
// and all together, every volume, mount and secretKeyRef names an object a printed kubectl line
// creates, and no secret's contents (key, passphrase, proxy password, API key) is in the file or on the console.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { IN_CI } from '../testkit/k6/k6.ts';
import { hasTestRunCrd, TESTRUN_CRD, testRunValidator } from '../testkit/k6/testrun-crd.ts';
import { makePki, type Pki } from '../testkit/tls-proxy/pki.ts';
import { NETWORK_SKIP } from '../testkit/tls-proxy/tools.ts';
import { capacityAction, type CapacityFlags } from './capacity.ts';

const noCrd = !hasTestRunCrd() && !IN_CI;
const skip = noCrd || NETWORK_SKIP !== undefined;
const title = (text: string) =>
  noCrd ? `${text} (skipped: ${TESTRUN_CRD} is not here)` : NETWORK_SKIP ? `${text} (${NETWORK_SKIP})` : text;

const PASSWORD = 'pr0xy-s3cret-pw';
const API_KEY = 'sk-live-capacity-key-0123456789';
const dir = mkdtempSync(join(tmpdir(), 'petcert-testrun-net-'));
const keysFile = join(dir, 'keys.txt');
writeFileSync(keysFile, Array.from({ length: 24 }, (_, i) => `free=${API_KEY}-${i}`).join('\n'));
const pki: Pki | undefined = skip ? undefined : makePki(['staging.petcert.test']);

interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef: { name: string; key: string } };
}
interface Runner {
  env: EnvVar[];
  volumes: Array<{ name: string; secret?: { secretName: string }; configMap?: { name: string } }>;
  volumeMounts: Array<{ name: string; mountPath: string; readOnly?: boolean }>;
}

async function emit(over: Partial<CapacityFlags>, env: Record<string, string> = {}) {
  const out: string[] = [];
  const file = join(dir, `testrun-${Math.random().toString(36).slice(2)}.yaml`);
  const flags: CapacityFlags = {
    baseUrl: 'https://staging.petcert.test:8443/v1',
    keysFile,
    mix: 'free=10',
    canaries: false,
    calibrate: true,
    reportDir: dir,
    failOn: 'must',
    emitTestrun: '3',
    testrunOut: file,
    ...over,
  };
  const code = await capacityAction(flags, { log: (l) => out.push(l), err: (l) => out.push(l) }, env);
  const text = readFileSync(file, 'utf8');
  const doc = parse(text) as { spec: { runner: Runner } };
  const commands = text.split('\n').filter((l) => l.startsWith('#   kubectl'));
  return { code, text, doc, runner: doc.spec.runner, console: out.join('\n'), commands };
}

const envOf = (r: Runner) => Object.fromEntries(r.env.map((e) => [e.name, e.value ?? e.valueFrom]));
/** The lines of a PEM key's body: none may appear anywhere. */
const keyLines = (path: string) =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.length > 20 && !l.startsWith('-----'));

/** Every mount has its volume, every volume and secretKeyRef an object the commands create, every path a mount. */
function expectConsistent(r: Runner, commands: string[]): void {
  const created = (name: string) =>
    commands.some((c) => new RegExp(`kubectl create (secret (generic|tls)|configmap) ${name} `).test(c));
  for (const m of r.volumeMounts) {
    expect(r.volumes.map((v) => v.name)).toContain(m.name);
    expect(m.readOnly).toBe(true);
  }
  expect(r.volumes.map((v) => v.name).sort()).toEqual(r.volumeMounts.map((m) => m.name).sort());
  for (const v of r.volumes)
    expect(created(v.secret?.secretName ?? v.configMap?.name ?? ''), JSON.stringify(v)).toBe(true);
  for (const e of r.env.filter((x) => x.valueFrom)) {
    const ref = e.valueFrom!.secretKeyRef;
    expect(created(ref.name), ref.name).toBe(true);
    expect(commands.find((c) => c.includes(` ${ref.name} `))).toContain(`--from-literal=${ref.key}=`);
  }
  const env = envOf(r);
  const mounted = (path: string) => r.volumeMounts.some((m) => path.startsWith(`${m.mountPath}/`));
  for (const name of ['KEYS_FILE', 'CLIENT_CERT_FILE', 'CLIENT_KEY_FILE'])
    if (typeof env[name] === 'string') expect(mounted(env[name]), name).toBe(true);
  if (typeof env.SSL_CERT_DIR === 'string') expect(mounted(`${env.SSL_CERT_DIR.split(':')[0]}/ca-1.pem`)).toBe(true);
  // `kubectl create secret tls` names its keys tls.crt and tls.key: the paths the script reads.
  if (typeof env.CLIENT_CERT_FILE === 'string') {
    expect(env.CLIENT_CERT_FILE).toMatch(/\/tls\.crt$/);
    expect(env.CLIENT_KEY_FILE).toMatch(/\/tls\.key$/);
  }
}

function expectNoSecret(text: string, secrets: string[]): void {
  for (const s of [PASSWORD, API_KEY, ...secrets]) expect(text, 'a secret leaked').not.toContain(s);
}

describe.skipIf(skip)('--emit-testrun N carries the network', () => {
  it(
    title('a proxy without credentials: plain runner env, --proxy winning over HTTPS_PROXY, NO_PROXY as resolved'),
    async () => {
      const env = { HTTPS_PROXY: 'http://env-proxy.corp:3128', NO_PROXY: '.internal.corp' };
      const r = await emit({ proxy: 'http://proxy.corp:3128' }, env);
      expect(r.code).toBe(0);
      expect(testRunValidator()(r.doc), JSON.stringify(testRunValidator().errors)).toBe(true);
      expect(envOf(r.runner)).toMatchObject({
        HTTPS_PROXY: 'http://proxy.corp:3128',
        HTTP_PROXY: 'http://proxy.corp:3128',
        NO_PROXY: '.internal.corp,localhost,127.0.0.1,[::1]',
      });
      expect(r.commands.join('\n')).not.toContain('-proxy');
      expectConsistent(r.runner, r.commands);
    },
  );

  it(title('a proxy with credentials: read from the proxy Secret by secretKeyRef, its password nowhere'), async () => {
    const r = await emit({ proxy: `http://svc-load:${PASSWORD}@proxy.corp:3128` });
    expect(testRunValidator()(r.doc), JSON.stringify(testRunValidator().errors)).toBe(true);
    expect(envOf(r.runner).HTTPS_PROXY).toEqual({
      secretKeyRef: { name: 'petcert-capacity-proxy', key: 'HTTPS_PROXY' },
    });
    expect(r.text).toContain(
      "kubectl create secret generic petcert-capacity-proxy --from-literal=HTTPS_PROXY='http://USER:PASSWORD@proxy.corp:3128'",
    );
    expect(r.console).toContain('http://***@proxy.corp:3128');
    expectConsistent(r.runner, r.commands);
    expectNoSecret(r.text + r.console, ['svc-load']);
    // From the environment, the line takes it from the same variable: the user's shell has it.
    const fromEnv = await emit({}, { https_proxy: `http://svc-load:${PASSWORD}@proxy.corp:3128` });
    expect(fromEnv.text).toContain('--from-literal=HTTPS_PROXY="$https_proxy"');
    expect(envOf(fromEnv.runner).HTTP_PROXY).toBeUndefined();
    expectConsistent(fromEnv.runner, fromEnv.commands);
    expectNoSecret(fromEnv.text + fromEnv.console, ['svc-load']);
  });

  it(title('a private CA: a ConfigMap mounted in the runner, added to the image roots by SSL_CERT_DIR'), async () => {
    const r = await emit({ caFile: pki!.caCert });
    expect(testRunValidator()(r.doc), JSON.stringify(testRunValidator().errors)).toBe(true);
    expect(envOf(r.runner).SSL_CERT_DIR).toBe('/petcert/ca:/etc/ssl/certs');
    expect(envOf(r.runner).SSL_CERT_FILE).toBeUndefined();
    expect(r.commands).toContainEqual(
      expect.stringContaining(`kubectl create configmap petcert-capacity-ca --from-file=ca-1.pem=${pki!.caCert}`),
    );
    expect(r.console).toContain(`--from-file=ca-1.pem=${pki!.caCert}`);
    expect(r.text).not.toContain('BEGIN CERTIFICATE');
    expectConsistent(r.runner, r.commands);
  });

  it(
    title('a client certificate: a tls Secret mounted read-only, the script told its paths; the key nowhere'),
    async () => {
      const r = await emit({ clientCert: pki!.clientCert, clientKey: pki!.clientKey });
      expect(testRunValidator()(r.doc), JSON.stringify(testRunValidator().errors)).toBe(true);
      expect(envOf(r.runner)).toMatchObject({
        CLIENT_CERT_FILE: '/petcert/client-tls/tls.crt',
        CLIENT_KEY_FILE: '/petcert/client-tls/tls.key',
      });
      expect(r.text).toContain(
        `kubectl create secret tls petcert-capacity-client-tls --cert=${pki!.clientCert} --key=${pki!.clientKey}`,
      );
      expectConsistent(r.runner, r.commands);
      expectNoSecret(r.text + r.console, keyLines(pki!.clientKey));
      // An encrypted key goes in decrypted (k6 reads no passphrase), the passphrase from its variable only.
      const enc = await emit(
        { clientCert: pki!.clientCert, clientKey: pki!.clientKeyEncrypted },
        { PETCERT_CLIENT_KEY_PASSPHRASE: pki!.passphrase },
      );
      expect(enc.text).toContain(
        `--key=<(openssl pkey -in ${pki!.clientKeyEncrypted} -passin env:PETCERT_CLIENT_KEY_PASSPHRASE)`,
      );
      expectNoSecret(enc.text + enc.console, [
        pki!.passphrase,
        ...keyLines(pki!.clientKeyEncrypted),
        ...keyLines(pki!.clientKey),
      ]);
    },
  );

  it(title('--insecure: K6_INSECURE_SKIP_TLS_VERIFY=true, said in the file and on the console'), async () => {
    const r = await emit({ insecure: true });
    expect(testRunValidator()(r.doc), JSON.stringify(testRunValidator().errors)).toBe(true);
    expect(envOf(r.runner).K6_INSECURE_SKIP_TLS_VERIFY).toBe('true');
    expect(r.text).toMatch(/^# WARNING: TLS verification is off in the runners/m);
    expect(r.console).toContain('WARNING: TLS verification is off in the runners');
    expectConsistent(r.runner, r.commands);
  });

  it(title('all together: valid, consistent, every object created by a printed line, no secret anywhere'), async () => {
    const r = await emit(
      {
        proxy: `http://svc-load:${PASSWORD}@proxy.corp:3128`,
        caFile: pki!.caCert,
        clientCert: pki!.clientCert,
        clientKey: pki!.clientKeyEncrypted,
        insecure: true,
      },
      { PETCERT_CLIENT_KEY_PASSPHRASE: pki!.passphrase, NODE_EXTRA_CA_CERTS: pki!.otherCaCert },
    );
    expect(r.code).toBe(0);
    expect(testRunValidator()(r.doc), JSON.stringify(testRunValidator().errors)).toBe(true);
    expect(r.runner.volumes.map((v) => v.name).sort()).toEqual(['petcert-ca', 'petcert-client-tls', 'petcert-keys']);
    expect(r.text).toContain(`--from-file=ca-1.pem=${pki!.caCert} --from-file=ca-2.pem=${pki!.otherCaCert}`);
    expectConsistent(r.runner, r.commands);
    // Every kubectl line of the file is on the console too (the manifest's own path for THIS_FILE).
    for (const c of r.commands) expect(r.console).toContain(c.slice(4).replace('THIS_FILE', ''));
    expectNoSecret(r.text + r.console, [
      'svc-load',
      pki!.passphrase,
      ...keyLines(pki!.clientKeyEncrypted),
      ...keyLines(pki!.clientKey),
    ]);
  });
});
