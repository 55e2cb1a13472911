import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { rootCertificates } from 'node:tls';
import { beforeAll, describe, expect, test } from 'vitest';
import { ConfigError } from '../core/errors.ts';
import { makePki, type Pki } from '../testkit/tls-proxy/pki.ts';
import { connectionTls, loadTls, PASSPHRASE_ENV } from './tls.ts';

let pki: Pki;
beforeAll(() => {
  pki = makePki(['staging.petcert.test']);
});

const message = (fn: () => unknown): string => {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('expected a ConfigError');
};

describe('loadTls', () => {
  test('--ca-file adds to the system roots, never replaces them', () => {
    const t = connectionTls(loadTls({ caFile: pki.caCert }, {}));
    expect(t.ca).toHaveLength(rootCertificates.length + 1);
    expect(t.ca!.at(-1)).toContain('BEGIN CERTIFICATE');
    expect(t.rejectUnauthorized).toBe(true);
  });

  test('NODE_EXTRA_CA_CERTS stays trusted beside --ca-file', () => {
    const t = loadTls({ caFile: pki.caCert }, { NODE_EXTRA_CA_CERTS: pki.otherCaCert });
    expect(t.extraCa).toEqual([readFileSync(pki.caCert, 'utf8').trim(), readFileSync(pki.otherCaCert, 'utf8').trim()]);
  });

  test('no CA given: Node keeps its own roots (no ca option)', () => {
    expect(connectionTls(loadTls({}, {})).ca).toBeUndefined();
  });

  test('a CA file without a certificate names the flag', () => {
    const bad = join(pki.dir, 'not-a-ca.pem');
    writeFileSync(bad, 'hello');
    expect(message(() => loadTls({ caFile: bad }, {}))).toMatch(/^--ca-file: .*holds no PEM certificate/);
    expect(
      message(() => loadTls({ caFile: join(pki.dir, 'missing.pem'), fields: { caFile: 'targets.s.caFile' } }, {})),
    ).toMatch(/^targets\.s\.caFile: cannot read the CA file/);
  });

  test('a client certificate needs its key', () => {
    expect(message(() => loadTls({ clientCert: pki.clientCert }, {}))).toMatch(
      /^--client-key: a client certificate needs its key/,
    );
  });

  test('the identity is presented as given; the passphrase only from its variable', () => {
    const t = loadTls(
      { clientCert: pki.clientCert, clientKey: pki.clientKeyEncrypted },
      { [PASSPHRASE_ENV]: pki.passphrase },
    );
    expect(connectionTls(t)).toMatchObject({ passphrase: pki.passphrase });
    expect(t.client?.passphraseEnv).toBe(PASSPHRASE_ENV);
  });

  test('an encrypted key without its passphrase says which variable; the key never appears', () => {
    const key = readFileSync(pki.clientKeyEncrypted, 'utf8');
    const text = message(() => loadTls({ clientCert: pki.clientCert, clientKey: pki.clientKeyEncrypted }, {}));
    expect(text).toMatch(new RegExp(`^--client-key: .*encrypted: give its passphrase in ${PASSPHRASE_ENV}`));
    expect(text).not.toContain(key.split('\n')[1]!);
    expect(
      message(() =>
        loadTls({ clientCert: pki.clientCert, clientKey: pki.clientKeyEncrypted }, { [PASSPHRASE_ENV]: 'wrong' }),
      ),
    ).toMatch(/does not open it/);
  });

  test("a key that is not the certificate's is refused", () => {
    expect(message(() => loadTls({ clientCert: pki.clientCert, clientKey: pki.serverKey }, {}))).toMatch(
      /is not the key of/,
    );
  });

  test('--insecure turns verification off', () => {
    expect(connectionTls(loadTls({ insecure: true }, {})).rejectUnauthorized).toBe(false);
  });
});
