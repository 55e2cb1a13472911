// The run's network (http/network.ts) as k6 takes it: the proxies as the variables Go reads (both
// cases, so that Go's upper-case-first reading and curl's lower-case-first agree), the trusted roots as
// one bundle in SSL_CERT_FILE (the system's roots plus --ca-file and NODE_EXTRA_CA_CERTS: Go trusts only
// that file then), verification off as K6_INSECURE_SKIP_TLS_VERIFY. The client certificate goes in the
// run document (document.ts `tls`): k6 takes it as options.tlsAuth, read by path, never by value.
import { createPrivateKey } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { rootCertificates } from 'node:tls';
import type { Network } from '../http/network.ts';

/** Where Go looks for the system's roots on Linux (crypto/x509 root_linux.go), in its order. */
const GO_CERT_FILES = [
  '/etc/ssl/certs/ca-certificates.crt',
  '/etc/pki/tls/certs/ca-bundle.crt',
  '/etc/ssl/ca-bundle.pem',
  '/etc/pki/tls/cacert.pem',
  '/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem',
  '/etc/ssl/cert.pem',
];

/** The roots Go would trust without SSL_CERT_FILE, or Node's (Mozilla's) when the system has none. */
function systemRoots(env: Record<string, string | undefined>): string {
  const file = [env.SSL_CERT_FILE, ...GO_CERT_FILES].find(
    (f): f is string => f !== undefined && f !== '' && existsSync(f),
  );
  return file ? readFileSync(file, 'utf8') : rootCertificates.join('\n');
}

/** The bundle k6 trusts: the system's roots and the extra CAs, written into `dir`. */
export function writeTrustBundle(
  network: Network,
  dir: string,
  env: Record<string, string | undefined> = process.env,
): string {
  const path = join(dir, 'ca-bundle.pem');
  writeFileSync(path, `${systemRoots(env).trim()}\n${network.tls.extraCa.join('\n')}\n`, { mode: 0o644 });
  return path;
}

/** k6's environment for the network; `dir` holds the trust bundle when one is needed. */
export function k6NetworkEnv(
  network: Network,
  dir: string,
  env: Record<string, string | undefined> = process.env,
): Record<string, string> {
  const out: Record<string, string> = {};
  const { http, https, noProxy } = network.proxy;
  if (https) Object.assign(out, { HTTPS_PROXY: https, https_proxy: https });
  if (http) Object.assign(out, { HTTP_PROXY: http, http_proxy: http });
  if (http || https) Object.assign(out, { NO_PROXY: noProxy, no_proxy: noProxy });
  if (network.tls.extraCa.length > 0) out.SSL_CERT_FILE = writeTrustBundle(network, dir, env);
  if (network.tls.insecure) out.K6_INSECURE_SKIP_TLS_VERIFY = 'true';
  return out;
}

/** The client certificate's files as k6 reads them: the key decrypted into `dir` when it has a passphrase. */
export function k6ClientFiles(network: Network, dir: string): { certFile: string; keyFile: string } | undefined {
  const client = network.tls.client;
  if (client === undefined) return undefined;
  if (client.passphrase === undefined) return { certFile: client.certFile, keyFile: client.keyFile };
  const keyFile = join(dir, 'client.key');
  const pem = createPrivateKey({ key: client.key, passphrase: client.passphrase }).export({
    type: 'pkcs8',
    format: 'pem',
  });
  writeFileSync(keyFile, pem, { mode: 0o600 });
  return { certFile: client.certFile, keyFile };
}
