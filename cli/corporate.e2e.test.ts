// Every command where real teams run it, with the real parts (testkit/tls-proxy): the staging name is
// resolved by squid alone, nginx serves it with the test's private CA and wants a client certificate,
// tinyproxy wants credentials, a TLS front refuses the handshake. conform, quota, certify and capacity
// (both pinned k6 versions) PASS through the proxy, over the CA, with the client certificate; each
// misconfiguration ends in exit 3 naming its cause and fix, never a FAIL. One network for the file.
import { chmodSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, test } from 'vitest';
import { PASSPHRASE_ENV } from '../http/tls.ts';
import type { Report } from '../report/model.ts';
import { parsePlansFile } from '../spec/plans.ts';
import { eachK6 } from '../testkit/capacity/k6.ts';
import { buildK6 } from '../scripts/build-k6.ts';
import { runCli } from '../testkit/cli/run-cli.ts';
import { startCorporate, type Corporate } from '../testkit/tls-proxy/corporate.ts';
import { NETWORK_SKIP } from '../testkit/tls-proxy/tools.ts';
import { conformAction, type ConformFlags } from './conform.ts';
import { startingNow } from './embedded.ts';

/**
 * 4-second minutes and 24-second days: a free or pro key's whole day is 3 windows of the 6; business carries the load.
 * Figures small enough that a burst (twice the minute figure, each request its own tunnel and TLS handshake
 * through squid) fits in one window on a loaded 2-core machine.
 */
const PLANS = {
  windows: { minuteSeconds: 4, daySeconds: 24 },
  plans: {
    free: { perMinute: 5, perDay: 15 },
    pro: { perMinute: 5, perDay: 15 },
    business: { perMinute: 2000, perDay: 10_000_000 },
  },
};
const dir = mkdtempSync(join(tmpdir(), 'petcert-corporate-'));
const plansFile = join(dir, 'plans.json');
const KEYS = {
  conform: 'pc-corp-conform-business-1',
  quota: 'pc-corp-quota-free-1',
  certifyQuota: 'pc-corp-certify-free-1',
  certifyPro: 'pc-corp-certify-pro-1',
  load: 'pc-corp-load-business-1',
  spare: 'pc-corp-spare-free-1',
};
let corp: Corporate;
let script = '';

beforeAll(async () => {
  if (NETWORK_SKIP) return;
  writeFileSync(plansFile, JSON.stringify(PLANS));
  const keys = {
    [KEYS.conform]: 'business',
    [KEYS.quota]: 'free',
    [KEYS.certifyQuota]: 'free',
    [KEYS.certifyPro]: 'pro',
    [KEYS.load]: 'business',
    [KEYS.spare]: 'free',
  };
  corp = await startCorporate({ plans: startingNow(parsePlansFile(PLANS)), keys });
  script = (await buildK6(join(dir, 'dist'))).find((f) => f.endsWith('capacity.js'))!;
}, 90_000);
afterAll(async () => corp?.close());

/** The client's identity and trust, the key encrypted (its passphrase in the environment). */
const identity = () => [
  '--ca-file',
  corp.pki.caCert,
  '--client-cert',
  corp.pki.clientCert,
  '--client-key',
  corp.pki.clientKeyEncrypted,
];
const behindProxy = () => ({ HTTPS_PROXY: corp.squid.url, [PASSPHRASE_ENV]: corp.pki.passphrase });

async function petcert(args: string[], env: Record<string, string> = {}, timeoutMs = 120_000) {
  const reportDir = mkdtempSync(join(dir, 'reports-'));
  const started = Date.now();
  const run = await runCli([...args, '--report-dir', reportDir], { env, cwd: dir, timeoutMs });
  const ms = Date.now() - started;
  const out = run.stdout + run.stderr;
  let report: Report | undefined;
  try {
    report = JSON.parse(readFileSync(join(reportDir, 'latest', 'report.json'), 'utf8')) as Report;
  } catch {
    report = undefined;
  }
  return { code: run.code, out, report, reportDir, ms };
}

const conform = (base: string, args: string[], env: Record<string, string> = {}) =>
  petcert(['conform', '--base-url', base, '--key', `business=${KEYS.conform}`, '--plans', plansFile, ...args], env);

const tunnelsTo = (port: number, since: number) =>
  corp.squid
    .accessLog()
    .slice(since)
    .filter((l) => new RegExp(`TCP_TUNNEL/200 .*CONNECT staging\\.petcert\\.test:${port}`).test(l)).length;

describe.skipIf(NETWORK_SKIP !== undefined)(
  `behind a proxy, with a private CA and a client certificate${NETWORK_SKIP ? ` (${NETWORK_SKIP})` : ''}`,
  () => {
    test('conform PASSes through HTTPS_PROXY over the CA with the client certificate; the proxy logged it, the report says so', async () => {
      const before = corp.squid.accessLog().length;
      const r = await conform(corp.mtlsBase, identity(), behindProxy());
      expect(r.code, r.out).toBe(0);
      expect(r.out).toMatch(/^Proxy: http:\/\/127\.0\.0\.1:\d+ \(from HTTPS_PROXY\) for staging\.petcert\.test:\d+$/m);
      expect(r.report!.network).toEqual({
        proxy: corp.squid.url,
        proxyFrom: 'HTTPS_PROXY',
        caFile: corp.pki.caCert,
        clientCert: corp.pki.clientCert,
        tlsVerification: 'on',
      });
      await expect.poll(() => tunnelsTo(corp.nginx.mtlsPort, before)).toBeGreaterThan(0);
      expect(readFileSync(join(r.reportDir, 'latest', 'report.json'), 'utf8')).not.toContain(
        readFileSync(corp.pki.clientKey, 'utf8').split('\n')[1]!,
      );
    });

    test('quota PASSes through --proxy (credentials in its URL never printed) over the CA with the client certificate', async () => {
      const proxy = corp.tinyproxy.urlWithCredentials;
      const r = await petcert(
        [
          'quota',
          '--base-url',
          corp.mtlsBase,
          '--key',
          `free=${KEYS.quota}`,
          '--plans',
          plansFile,
          '--only',
          'minute',
          '--proxy',
          proxy,
          ...identity(),
        ],
        { [PASSPHRASE_ENV]: corp.pki.passphrase },
      );
      expect(r.code, r.out).toBe(0);
      expect(r.report!.network!.proxy).toMatch(/^http:\/\/\*\*\*@127\.0\.0\.1:\d+$/);
      const written = readdirSync(join(r.reportDir, 'latest'))
        .map((f) => readFileSync(join(r.reportDir, 'latest', f), 'utf8'))
        .join('\n');
      expect(`${r.out}\n${written}`).not.toContain(corp.tinyproxy.password);
    }, 120_000); // about 16 s quiet (four 4 s windows); a loaded machine stretches the tunnels' TLS handshakes

    // Two plans (isolation needs them); the day probes make this the file's longest test (about 50 s).
    test(
      "certify PASSes with the config target's network field (proxy, CA, client certificate)",
      { timeout: 220_000 },
      async () => {
        const config = join(dir, 'petcert.config.json');
        writeFileSync(
          config,
          JSON.stringify({
            targets: {
              staging: {
                baseUrl: corp.mtlsBase,
                keys: [
                  { plan: 'free', env: 'CERTIFY_FREE_KEY' },
                  { plan: 'pro', env: 'CERTIFY_PRO_KEY' },
                ],
                conformKeyEnv: 'CERTIFY_CONFORM_KEY',
                conformKeyPlan: 'business',
                plansFile,
                network: {
                  proxy: corp.squid.url,
                  caFile: corp.pki.caCert,
                  clientCert: corp.pki.clientCert,
                  clientKey: corp.pki.clientKey,
                },
              },
            },
          }),
        );
        const r = await petcert(
          ['certify', '--config', config, '--target', 'staging'],
          { CERTIFY_FREE_KEY: KEYS.certifyQuota, CERTIFY_PRO_KEY: KEYS.certifyPro, CERTIFY_CONFORM_KEY: KEYS.conform },
          210_000,
        );
        expect(r.code, r.out.slice(-3000)).toBe(0);
        expect(r.out).toMatch(/Proxy: http:\/\/127\.0\.0\.1:\d+ \(from targets\.staging\.network\.proxy\)/);
        expect(r.report!.network).toMatchObject({
          proxyFrom: 'targets.staging.network.proxy',
          clientCert: corp.pki.clientCert,
        });
      },
    );

    test('--insecure reaches a certificate nobody trusts, says so at start, and every report says "TLS verification was off"', async () => {
      const r = await conform(corp.tlsBase, ['--insecure', '--case', 'NewPet.name:type=null'], {
        HTTPS_PROXY: corp.squid.url,
      });
      expect(r.code, r.out).toBe(4); // one case replayed: the other checks not run
      expect(r.out).toMatch(/^WARNING: TLS verification was off \(--insecure\)/m);
      expect(r.report!.network!.tlsVerification).toBe('off');
      expect(readFileSync(join(r.reportDir, 'latest', 'junit.xml'), 'utf8')).toContain('TLS verification was off');
      expect(readFileSync(join(r.reportDir, 'latest', 'report.html'), 'utf8')).toContain('TLS verification was off');
    });

    // Each failure on this side: exit 3 within seconds, its cause and its fix, no judged request, never "Check --base-url" for a URL that is right.
    const MISCONFIGURED: ReadonlyArray<
      readonly [string, () => { base: string; args: string[]; env: Record<string, string> }, RegExp]
    > = [
      [
        'the CA not given',
        () => ({ base: corp.tlsBase, args: [], env: { HTTPS_PROXY: corp.squid.url } }),
        /certificate is not trusted \(UNABLE_TO_VERIFY_LEAF_SIGNATURE\): give the CA that signed it with --ca-file/,
      ],
      [
        'a host name the certificate does not list',
        () => ({
          base: corp.tlsBase.replace('staging', 'mismatch'),
          args: ['--ca-file', corp.pki.caCert],
          env: { HTTPS_PROXY: corp.squid.url },
        }),
        /not for mismatch\.petcert\.test \(host name mismatch/,
      ],
      [
        'no client certificate for nginx (ssl_verify_client on)',
        () => ({ base: corp.mtlsBase, args: ['--ca-file', corp.pki.caCert], env: { HTTPS_PROXY: corp.squid.url } }),
        /wants a client certificate[\s\S]*\nFix: give a client certificate the server accepts with --client-cert PATH --client-key PATH/,
      ],
      [
        'no client certificate for a front refusing the handshake',
        () => ({ base: corp.frontBase, args: ['--ca-file', corp.pki.caCert], env: { HTTPS_PROXY: corp.squid.url } }),
        /refused the TLS handshake for want of a client certificate .*--client-cert PATH --client-key PATH/,
      ],
      [
        'the proxy refusing (403)',
        () => ({ base: corp.tlsBase, args: ['--ca-file', corp.pki.caCert, '--proxy', corp.squid.denyingUrl], env: {} }),
        /the proxy http:\/\/127\.0\.0\.1:\d+ refused to connect to staging\.petcert\.test:\d+ \(403\)/,
      ],
      [
        'the proxy wanting credentials (407)',
        () => ({ base: corp.tlsBase, args: ['--ca-file', corp.pki.caCert, '--proxy', corp.tinyproxy.url], env: {} }),
        /wants credentials \(407 Proxy Authentication Required\): give them in the proxy URL/,
      ],
      [
        'the proxy not there',
        () => ({
          base: corp.tlsBase,
          args: ['--ca-file', corp.pki.caCert],
          env: { HTTPS_PROXY: 'http://127.0.0.1:1' },
        }),
        /cannot connect to the proxy http:\/\/127\.0\.0\.1:1 \(ECONNREFUSED\)/,
      ],
      [
        'no proxy for a name only the proxy resolves',
        () => ({ base: corp.tlsBase, args: ['--ca-file', corp.pki.caCert], env: {} }),
        /cannot resolve staging\.petcert\.test \(ENOTFOUND\), with no proxy in use \(set HTTPS_PROXY or --proxy/,
      ],
      [
        'http:// given for a TLS port',
        () => ({ base: corp.tlsBase.replace('https:', 'http:'), args: [], env: { HTTP_PROXY: corp.squid.url } }),
        /Did you mean --base-url https:\/\/staging\.petcert\.test:\d+\/v1\?/,
      ],
    ];

    // In the process (as cli/identify.e2e.test.ts measures): the bound is the identification's, not Node's start-up.
    test.for(MISCONFIGURED)(
      '%s: exit 3 within 2 s with the cause and the fix, nothing judged',
      async ([, setup, cause]) => {
        const { base, args, env } = setup();
        const lines: string[] = [];
        const out = { log: (l: string) => void lines.push(l), err: (l: string) => void lines.push(l) };
        const reportDir = mkdtempSync(join(dir, 'reports-'));
        const started = performance.now();
        const code = await conformAction(
          {
            ...conformFlags(args),
            baseUrl: base,
            key: `business=${KEYS.conform}`,
            plans: plansFile,
            failOn: 'must',
            reportDir,
          },
          out,
          env,
        );
        const ms = performance.now() - started;
        const text = lines.join('\n');
        const report = JSON.parse(readFileSync(join(reportDir, 'latest', 'report.json'), 'utf8')) as Report;
        console.log(`${Math.round(ms)} ms: ${report.aborted?.message.split('\n')[0]}`);
        expect(code, text).toBe(3);
        expect(text).toMatch(cause);
        expect(report.aborted!.message).toMatch(cause);
        expect(report.checks).toEqual([]);
        expect(text).not.toMatch(/^FAIL/m);
        expect(text).toMatch(/^Could not ask https?:\/\/\S+ from here: a failure on this side, not the service's/m);
        expect(ms).toBeLessThan(2_000);
      },
    );

    test.for(['quota', 'certify'] as const)(
      '%s: a CA not trusted is exit 3 with the fix, not a run of failures',
      async (command) => {
        const args =
          command === 'quota'
            ? ['quota', '--base-url', corp.tlsBase, '--key', `free=${KEYS.quota}`, '--plans', plansFile]
            : ['certify', '--config', writeStagingConfig(corp.tlsBase), '--target', 'staging'];
        const r = await petcert(args, { HTTPS_PROXY: corp.squid.url, CERTIFY_FREE_KEY: KEYS.certifyQuota });
        expect(r.code, r.out).toBe(3);
        expect(r.out).toMatch(/give the CA that signed it with --ca-file/);
      },
    );
  },
);

/** The network flags of MISCONFIGURED's argument lists, as conformAction takes them. */
function conformFlags(args: readonly string[]): Pick<ConformFlags, 'caFile' | 'proxy'> {
  const at = (flag: string) => (args.includes(flag) ? args[args.indexOf(flag) + 1] : undefined);
  const caFile = at('--ca-file');
  const proxy = at('--proxy');
  return { ...(caFile ? { caFile } : {}), ...(proxy ? { proxy } : {}) };
}

function writeStagingConfig(baseUrl: string): string {
  const file = join(dir, `config-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(
    file,
    JSON.stringify({ targets: { staging: { baseUrl, keys: [{ plan: 'free', env: 'CERTIFY_FREE_KEY' }], plansFile } } }),
  );
  return file;
}

/** capacity's arguments: one business customer at 35 % (175 req/s at the top), a free canary, a lax SLO. */
const CAPACITY = [
  '--mix',
  'business=1',
  '--utilisation',
  '0.35',
  '--steps',
  '2',
  '--max-factor',
  '1',
  '--step-seconds',
  '2',
  '--slo',
  'p99<3000ms,errors<5%',
  '--no-calibrate',
];

eachK6('capacity on the corporate network', (k6) => {
  let keysFile = '';
  beforeAll(() => {
    if (NETWORK_SKIP) return;
    keysFile = join(dir, 'keys.txt');
    writeFileSync(keysFile, `business=${KEYS.load}\nfree=${KEYS.spare}\n`);
  });

  it.skipIf(NETWORK_SKIP !== undefined)(
    'PASSes through the proxy over the CA with the client certificate: k6 went through squid',
    { timeout: 120_000 },
    async () => {
      const before = corp.squid.accessLog().length;
      const r = await petcert(
        [
          'capacity',
          '--base-url',
          corp.mtlsBase,
          '--keys-file',
          keysFile,
          '--plans',
          plansFile,
          '--script',
          script,
          ...CAPACITY,
          ...identity(),
        ],
        { ...behindProxy(), K6: k6()! },
      );
      expect(r.code, r.out).toBe(0);
      expect(
        r.report!.checks.every((c) => c.outcome === 'pass'),
        r.out,
      ).toBe(true);
      // k6 opens many tunnels (one per connection): far more than the Node preflight's few.
      await expect.poll(() => tunnelsTo(corp.nginx.mtlsPort, before)).toBeGreaterThan(3);
    },
  );

  it.skipIf(NETWORK_SKIP !== undefined)(
    "a k6 that does not trust the CA is no measurement: exit 3 with k6's x509 text, its log kept, nothing passed",
    { timeout: 120_000 },
    async () => {
      // Node trusts the CA, this k6 is given another one (as NODE_EXTRA_CA_CERTS alone would: Node reads it, k6 does not).
      const wrapper = join(dir, `k6-untrusting-${Math.random().toString(36).slice(2)}.sh`);
      writeFileSync(wrapper, `#!/bin/sh\nSSL_CERT_FILE=${corp.pki.otherCaCert} exec ${k6()} "$@"\n`);
      chmodSync(wrapper, 0o755);
      const r = await petcert(
        [
          'capacity',
          '--base-url',
          corp.tlsBase,
          '--keys-file',
          keysFile,
          '--plans',
          plansFile,
          '--script',
          script,
          ...CAPACITY,
          '--ca-file',
          corp.pki.caCert,
        ],
        { HTTPS_PROXY: corp.squid.url, K6: wrapper },
      );
      expect(r.code, r.out).toBe(3);
      expect(r.out).toMatch(/step 1: \d+ of \d+ requests got no HTTP answer \(k6: "x509: .*"/);
      expect(r.out).toMatch(/Fix: k6 does not trust the server's certificate: give its CA with --ca-file/);
      expect(r.report!.checks).toEqual([]);
      expect(r.report!.aborted!.message).toMatch(/x509/);
      const log = readdirSync(r.reportDir).find((f) => /^capacity-k6-.*\.log$/.test(f));
      expect(log, readdirSync(r.reportDir).join(', ')).toBeDefined();
      expect(readFileSync(join(r.reportDir, log!), 'utf8')).toMatch(/Request Failed/);
    },
  );
});
