import { createPrivateKey } from 'node:crypto';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { resolveNetwork } from '../http/network.ts';
import { makePki, type Pki } from '../testkit/tls-proxy/pki.ts';
import { k6ClientFiles, k6NetworkEnv } from './k6-network.ts';

let pki: Pki;
let dir = '';
beforeAll(() => {
  pki = makePki(['staging.example.com']);
  dir = mkdtempSync(join(tmpdir(), 'petcert-k6-network-'));
});

describe("k6's network", () => {
  test('the proxy resolved once, in both cases, so Go and curl conventions agree; loopback direct', () => {
    const env = k6NetworkEnv(
      resolveNetwork({}, { https_proxy: 'http://lower:1', HTTPS_PROXY: 'http://upper:2', NO_PROXY: '.corp' }),
      dir,
      {},
    );
    expect(env).toMatchObject({
      HTTPS_PROXY: 'http://lower:1',
      https_proxy: 'http://lower:1',
      NO_PROXY: '.corp,localhost,127.0.0.1,[::1]',
    });
    expect(env.HTTP_PROXY).toBeUndefined();
  });

  test('--ca-file: SSL_CERT_FILE is a bundle of the system roots plus the CA (Go then trusts only that file)', () => {
    const system = join(dir, 'system.pem');
    writeFileSync(system, readFileSync(pki.otherCaCert, 'utf8'));
    const env = k6NetworkEnv(resolveNetwork({ caFile: pki.caCert }, {}), dir, { SSL_CERT_FILE: system });
    const bundle = readFileSync(env.SSL_CERT_FILE!, 'utf8');
    expect(bundle).toContain(readFileSync(pki.otherCaCert, 'utf8').trim());
    expect(bundle).toContain(readFileSync(pki.caCert, 'utf8').trim());
  });

  test('NODE_EXTRA_CA_CERTS reaches k6 too (Node trusted it, k6 did not)', () => {
    const env = k6NetworkEnv(resolveNetwork({}, { NODE_EXTRA_CA_CERTS: pki.caCert }), dir, {
      NODE_EXTRA_CA_CERTS: pki.caCert,
    });
    expect(readFileSync(env.SSL_CERT_FILE!, 'utf8')).toContain(readFileSync(pki.caCert, 'utf8').trim());
  });

  test("nothing given: no variable set (k6 keeps its own roots and goes direct); --insecure turns k6's verification off", () => {
    expect(k6NetworkEnv(resolveNetwork({}, {}), dir, {})).toEqual({});
    expect(k6NetworkEnv(resolveNetwork({ insecure: true }, {}), dir, {})).toEqual({
      K6_INSECURE_SKIP_TLS_VERIFY: 'true',
    });
  });

  test('an encrypted key is handed to k6 decrypted, in the private folder only, readable by its owner only', () => {
    const network = resolveNetwork(
      { clientCert: pki.clientCert, clientKey: pki.clientKeyEncrypted },
      { PETCERT_CLIENT_KEY_PASSPHRASE: pki.passphrase },
    );
    const files = k6ClientFiles(network, dir)!;
    expect(files.certFile).toBe(pki.clientCert);
    expect(files.keyFile.startsWith(dir)).toBe(true);
    expect(statSync(files.keyFile).mode & 0o777).toBe(0o600);
    expect(() => createPrivateKey(readFileSync(files.keyFile, 'utf8'))).not.toThrow();
    expect(k6ClientFiles(resolveNetwork({ clientCert: pki.clientCert, clientKey: pki.clientKey }, {}), dir)).toEqual({
      certFile: pki.clientCert,
      keyFile: pki.clientKey,
    });
  });
});
