import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { ConfigError } from '../core/errors.ts';
import type { Report } from '../report/model.ts';
import { makePki, type Pki } from '../testkit/tls-proxy/pki.ts';
import { ROOT } from '../testkit/cli/documented.ts';
import { NETWORK_FIELDS, parseConfig } from './config.ts';
import { buildProgram } from './main.ts';
import { networkOf, stampNetwork } from './network-flags.ts';

const FLAGS = ['--proxy', '--ca-file', '--client-cert', '--client-key', '--insecure'];

describe('the network options, one source for flags, config and docs', () => {
  test.for(['conform', 'quota', 'certify', 'capacity'])('petcert %s --help lists every network flag', (name) => {
    const cmd = buildProgram().commands.find((c) => c.name() === name)!;
    const flags = cmd.options.map((o) => o.long);
    for (const flag of FLAGS) expect(flags).toContain(flag);
    expect(cmd.helpInformation()).toContain('--client-key <path>');
  });

  test('every network field of the config is documented, beside its flag', () => {
    const docs = readFileSync(join(ROOT, 'docs/certify-your-implementation.md'), 'utf8');
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    for (const field of NETWORK_FIELDS) {
      expect(docs, field).toContain(`\`${field}\``);
      expect(readme, field).toContain(`network.${field}`);
    }
  });

  test("the config target's network is parsed; an unknown field or a non-boolean insecure is refused by name", () => {
    const target = (network: unknown) => ({
      targets: { s: { baseUrl: 'https://s.example.com/v1', keys: [{ plan: 'free', env: 'K' }], network } },
    });
    expect(parseConfig(target({ proxy: 'http://p:1', caFile: 'ca.pem', insecure: true })).targets.s!.network).toEqual({
      proxy: 'http://p:1',
      caFile: 'ca.pem',
      insecure: true,
    });
    expect(() => parseConfig(target({ passphrase: 'x' }))).toThrow(/targets\.s\.network\.passphrase: unknown field/);
    expect(() => parseConfig(target({ insecure: 'yes' }))).toThrow(
      /targets\.s\.network\.insecure: must be true or false/,
    );
  });
});

describe('networkOf', () => {
  let pki: Pki;
  beforeAll(() => {
    pki = makePki(['staging.example.com']);
  });
  const configured = (network: object) => ({
    network,
    configPath: join(pki.dir, 'petcert.config.json'),
    field: 'targets.staging.network',
  });

  test('config paths are relative to the config file; its proxy is named by its field', () => {
    const n = networkOf({}, {}, configured({ proxy: 'http://proxy.corp:3128', caFile: 'ca.crt' }));
    expect(n.tls.caFile).toBe(pki.caCert);
    expect(n.proxy.from.https).toBe('targets.staging.network.proxy');
  });

  test('a flag overrides the config field of the same name', () => {
    const n = networkOf(
      { proxy: 'http://cli:1', caFile: pki.otherCaCert },
      { HTTPS_PROXY: 'http://env:2' },
      configured({ proxy: 'http://conf:3', caFile: 'ca.crt' }),
    );
    expect([n.proxy.https, n.proxy.from.https, n.tls.caFile]).toEqual(['http://cli:1', '--proxy', pki.otherCaCert]);
  });

  test('a bad file in the config is an error naming the config field', () => {
    writeFileSync(join(pki.dir, 'empty.pem'), '');
    expect(() => networkOf({}, {}, configured({ caFile: 'empty.pem' }))).toThrow(ConfigError);
    expect(() => networkOf({}, {}, configured({ caFile: 'empty.pem' }))).toThrow(
      /^targets\.staging\.network\.caFile: /,
    );
  });

  test("the report records the network with the proxy's credentials redacted, and whether verification was on", () => {
    const n = networkOf({ proxy: 'http://ci:s3cret@proxy.corp:3128', insecure: true }, {});
    const bare: Report = {
      tool: 'petcert',
      version: 't',
      kind: 'conform',
      target: 'https://s.example.com/v1',
      startedAt: '',
      finishedAt: '',
      seed: null,
      requests: 0,
      checks: [],
    };
    const r = stampNetwork(bare, n, 'https://s.example.com/v1');
    expect(r.network).toEqual({ proxy: 'http://***@proxy.corp:3128', proxyFrom: '--proxy', tlsVerification: 'off' });
    expect(JSON.stringify(r)).not.toContain('s3cret');
  });
});
