// A private PKI made by the test with openssl, as a company's would be: a CA, a server certificate for
// the given host names (signed by it), a client certificate (signed by it), the client key also
// encrypted, and a second CA nobody trusts (a certificate from the wrong CA).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Pki {
  dir: string;
  caCert: string;
  serverCert: string;
  serverKey: string;
  clientCert: string;
  clientKey: string;
  /** The client key encrypted with `passphrase` (AES-256). */
  clientKeyEncrypted: string;
  passphrase: string;
  /** A CA that signed nothing this server presents. */
  otherCaCert: string;
}

const openssl = (dir: string, args: string[]): void => void execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });

function ca(dir: string, name: string): void {
  openssl(dir, [
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-keyout',
    `${name}.key`,
    '-out',
    `${name}.crt`,
    '-days',
    '2',
    '-subj',
    `/CN=${name} test CA`,
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  ]);
}

function leaf(dir: string, name: string, signer: string, ext: string): void {
  openssl(dir, [
    'req',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-keyout',
    `${name}.key`,
    '-out',
    `${name}.csr`,
    '-subj',
    `/CN=${name}`,
  ]);
  writeFileSync(join(dir, `${name}.ext`), ext);
  openssl(dir, [
    'x509',
    '-req',
    '-in',
    `${name}.csr`,
    '-CA',
    `${signer}.crt`,
    '-CAkey',
    `${signer}.key`,
    '-CAcreateserial',
    '-out',
    `${name}.crt`,
    '-days',
    '2',
    '-extfile',
    `${name}.ext`,
  ]);
}

/** The PKI in a fresh temporary folder; the server certificate names `hosts` (DNS names) and 127.0.0.1. */
export function makePki(hosts: readonly string[]): Pki {
  const dir = mkdtempSync(join(tmpdir(), 'petcert-pki-'));
  ca(dir, 'ca');
  ca(dir, 'other-ca');
  const san = [...hosts.map((h) => `DNS:${h}`), 'IP:127.0.0.1'].join(',');
  leaf(dir, 'server', 'ca', `subjectAltName=${san}\nextendedKeyUsage=serverAuth\n`);
  leaf(dir, 'client', 'ca', 'extendedKeyUsage=clientAuth\n');
  const passphrase = 'correct horse battery';
  openssl(dir, [
    'pkey',
    '-in',
    'client.key',
    '-aes256',
    '-passout',
    `pass:${passphrase}`,
    '-out',
    'client-encrypted.key',
  ]);
  const at = (f: string) => join(dir, f);
  return {
    dir,
    caCert: at('ca.crt'),
    serverCert: at('server.crt'),
    serverKey: at('server.key'),
    clientCert: at('client.crt'),
    clientKey: at('client.key'),
    clientKeyEncrypted: at('client-encrypted.key'),
    passphrase,
    otherCaCert: at('other-ca.crt'),
  };
}
