// A runner as the emitted TestRun makes it, under the real k6 (each pinned version), on the corporate
// network (testkit/tls-proxy): the manifest's kubectl lines are carried out locally as the cluster would
// (their files and literals, the key decrypted by the line's own openssl, each volume laid out as the
// kubelet lays out a ConfigMap or Secret: files linked through `..data`), the mount paths remapped to a
// temporary folder, and the bundled capacity script run with the runner env and arguments alone. It
// reaches the staging host (resolved by squid only) through the authenticating proxy named by a
// secretKeyRef, trusts the private CA through SSL_CERT_DIR beside the system roots, and presents the
// client certificate the nginx port wants: every request answered.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { parse } from 'yaml';
import { PASSPHRASE_ENV } from '../http/tls.ts';
import { parseRunnerResults } from '../load/capacity/result.ts';
import { runK6Process } from '../load/k6-process.ts';
import { parsePlansFile } from '../spec/plans.ts';
import { capacityBed, eachK6 } from '../testkit/capacity/k6.ts';
import { startCorporate, type Corporate } from '../testkit/tls-proxy/corporate.ts';
import { NETWORK_SKIP } from '../testkit/tls-proxy/tools.ts';
import { capacityAction } from './capacity.ts';
import { startingNow } from './embedded.ts';

/** 4-second minutes: one business key carries 0.9 × 2000 / 4 s = 450 req/s. */
const PLANS = {
  windows: { minuteSeconds: 4, daySeconds: 40 },
  plans: { business: { perMinute: 2000, perDay: 10_000_000 } },
};
const KEY = 'pc-testrun-net-business-1';
const { dir, plansFile, script } = capacityBed('petcert-testrun-net-e2e-');
let corp: Corporate;

beforeAll(async () => {
  if (NETWORK_SKIP) return;
  writeFileSync(plansFile, JSON.stringify(PLANS));
  corp = await startCorporate({ plans: startingNow(parsePlansFile(PLANS)), keys: { [KEY]: 'business' } });
}, 90_000);
afterAll(async () => corp?.close());

interface Runner {
  env: Array<{ name: string; value?: string; valueFrom?: { secretKeyRef: { name: string; key: string } } }>;
  volumes: Array<{ name: string; secret?: { secretName: string }; configMap?: { name: string } }>;
  volumeMounts: Array<{ name: string; mountPath: string }>;
}

/** A shell word of a printed line as the user's bash reads it (their environment: the passphrase, the proxy). */
const shellValue = (word: string, env: Record<string, string>): string =>
  execFileSync('bash', ['--norc', '--noprofile', '-c', `printf %s ${word}`], {
    env: { PATH: process.env.PATH, ...env },
    encoding: 'utf8',
  });

/**
 * `kubectl create configmap|secret generic|secret tls NAME …` as data: file name → contents. The
 * values are read the way kubectl would read them from the user's shell.
 */
function created(commands: string[], env: Record<string, string>): Map<string, Record<string, string>> {
  const objects = new Map<string, Record<string, string>>();
  for (const line of commands) {
    const m = /^kubectl create (?:configmap|secret generic|secret tls) (\S+) (.*?)(?:\s{3}#.*)?$/.exec(line);
    if (!m) continue;
    const data: Record<string, string> = {};
    for (const arg of m[2]!.match(/--[a-z-]+=(?:<\([^)]*\)|'[^']*'|"[^"]*"|\S)+/g) ?? []) {
      const [, flag, rest] = /^--([a-z-]+)=(.*)$/.exec(arg)!;
      const [name, value] =
        flag === 'cert' ? ['tls.crt', rest!] : flag === 'key' ? ['tls.key', rest!] : splitOnce(rest!);
      data[name] = flag === 'from-literal' ? shellValue(value, env) : readWord(value, env);
    }
    objects.set(m[1]!, data);
  }
  return objects;
}
/** `--from-file=name=path`, or `--from-file=path` (kubectl names it by its base name). */
const splitOnce = (s: string): [string, string] =>
  s.includes('=') ? [s.slice(0, s.indexOf('=')), s.slice(s.indexOf('=') + 1)] : [basename(s), s];
/** The bundle `npm run build` would write: the test's own build (load/dist is not built here). */
let bundle = '';
/** A file argument: a path, or bash's `<(command)` (the encrypted key decrypted by the line's own openssl). */
const readWord = (word: string, env: Record<string, string>): string =>
  word.startsWith('<(')
    ? shellValue(`"$(${word.slice(2, -1)})"`, env)
    : readFileSync(word === 'load/dist/capacity.js' ? bundle : word, 'utf8');

/** A volume as the kubelet lays it out: each file a link through `..data` to a timestamped folder. */
function mountVolume(at: string, data: Record<string, string>): void {
  const stamp = '..2026_11_28_00_00_00.000000001';
  mkdirSync(join(at, stamp), { recursive: true });
  for (const [name, text] of Object.entries(data)) writeFileSync(join(at, stamp, name), text);
  symlinkSync(stamp, join(at, '..data'));
  for (const name of Object.keys(data)) symlinkSync(join('..data', name), join(at, name));
}

eachK6('a TestRun runner on the corporate network', (k6) => {
  it.skipIf(NETWORK_SKIP !== undefined)(
    `reaches the mTLS staging host through the authenticating proxy, over the private CA${NETWORK_SKIP ? ` (${NETWORK_SKIP})` : ''}`,
    { timeout: 120_000 },
    async () => {
      const keysFile = join(dir, 'keys.txt');
      writeFileSync(keysFile, `business=${KEY}\n`);
      const out = join(dir, `testrun-${Math.random().toString(36).slice(2)}.yaml`);
      // The proxy from the environment: its kubectl line reads the same variable, so it runs as printed.
      const userEnv = { HTTPS_PROXY: corp.tinyproxy.urlWithCredentials, [PASSPHRASE_ENV]: corp.pki.passphrase };
      const said: string[] = [];
      const code = await capacityAction(
        {
          baseUrl: corp.mtlsBase,
          keysFile,
          plans: plansFile,
          mix: 'business=1',
          utilisation: '0.05',
          steps: '2',
          maxFactor: '1',
          stepSeconds: '2',
          canaries: false,
          calibrate: false,
          reportDir: dir,
          failOn: 'must',
          emitTestrun: '1',
          testrunOut: out,
          caFile: corp.pki.caCert,
          clientCert: corp.pki.clientCert,
          clientKey: corp.pki.clientKeyEncrypted,
        },
        { log: (l) => said.push(l), err: (l) => said.push(l) },
        userEnv,
      );
      expect(code, said.join('\n')).toBe(0);
      const text = readFileSync(out, 'utf8');
      expect(`${text}\n${said.join('\n')}`).not.toContain(corp.tinyproxy.password);
      const manifest = parse(text) as { spec: { arguments: string; runner: Runner } };
      const runner = manifest.spec.runner;
      bundle = script();
      const objects = created(
        text.split('\n').flatMap((l) => (l.startsWith('#   kubectl create') ? [l.slice(4)] : [])),
        userEnv,
      );
      // The cluster's side: the script ConfigMap at /test, each volume at its mount, under `root`.
      const root = mkdtempSync(join(dir, 'runner-'));
      mountVolume(join(root, 'test'), objects.get('petcert-capacity')!);
      for (const m of runner.volumeMounts) {
        const v = runner.volumes.find((x) => x.name === m.name)!;
        const data = objects.get(v.secret?.secretName ?? v.configMap?.name ?? '');
        expect(data, `no kubectl line creates the volume ${v.name}`).toBeDefined();
        mountVolume(join(root, m.mountPath), data!);
      }
      const remap = (value: string) => value.replace(/(^|:)(\/petcert\/|\/test\/)/g, `$1${root}$2`);
      const env = Object.fromEntries(
        runner.env.map((e) => {
          const ref = e.valueFrom?.secretKeyRef;
          return [e.name, ref ? objects.get(ref.name)![ref.key]! : remap(e.value!)];
        }),
      );
      expect(env.HTTPS_PROXY).toBe(corp.tinyproxy.urlWithCredentials);
      const before = corp.squid.accessLog().length;
      const run = await runK6Process({
        k6: k6()!,
        args: ['run', '--quiet', ...manifest.spec.arguments.split(' '), join(root, 'test', 'capacity.js')],
        env,
        timeoutMs: 60_000,
      });
      const log = `exit ${run.code}\n${run.stdout.slice(-3000)}\n${run.stderr.slice(-3000)}`;
      const [result] = parseRunnerResults(run.stdout + run.stderr, 'k6');
      expect(result, log).toBeDefined();
      const requests = result!.steps.reduce((n, s) => n + s.requests, 0);
      expect(requests, log).toBeGreaterThan(10);
      // nginx answers a request without the client certificate 400: an unexpected 4xx, not a failure.
      const wrong = result!.steps.map((s) => ({
        failed: s.failed,
        noAnswer: s.noAnswer ?? 0,
        unexpected4xx: s.unexpected4xx,
      }));
      expect(wrong, log).toEqual(result!.steps.map(() => ({ failed: 0, noAnswer: 0, unexpected4xx: 0 })));
      // Through the proxies: squid saw the tunnels to the mTLS port.
      const tunnel = new RegExp(`TCP_TUNNEL/200 .*CONNECT staging\\.petcert\\.test:${corp.nginx.mtlsPort}`);
      await expect
        .poll(
          () =>
            corp.squid
              .accessLog()
              .slice(before)
              .filter((l) => tunnel.test(l)).length,
        )
        .toBeGreaterThan(0);
    },
  );
});
