// Whom the run trusts and who it says it is, read once for Node and k6 alike: `--ca-file` adds CAs to
// the system roots (never replaces them), `--client-cert`/`--client-key` is the identity a gateway may
// ask for (the key's passphrase only from PETCERT_CLIENT_KEY_PASSPHRASE: never a flag, never a file),
// `--insecure` turns verification off. A file that cannot serve is a usage error naming its flag; no
// error ever quotes a key.
import { X509Certificate, createPrivateKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createSecureContext, rootCertificates } from 'node:tls';
import { ConfigError, errorMessage } from '../core/errors.ts';
import type { Env } from './proxy.ts';

export const PASSPHRASE_ENV = 'PETCERT_CLIENT_KEY_PASSPHRASE';

export interface TlsFlags {
  caFile?: string;
  clientCert?: string;
  clientKey?: string;
  insecure?: boolean;
  /** How the user named each file (`--ca-file`, `targets.staging.caFile`): errors name it. */
  fields?: { caFile?: string; clientCert?: string; clientKey?: string };
}

export interface ClientIdentity {
  certFile: string;
  keyFile: string;
  cert: string;
  key: string;
  /** The name of the variable holding the passphrase, when it is set. */
  passphraseEnv?: string;
  passphrase?: string;
}

export interface TlsSettings {
  /** Absolute path of --ca-file. */
  caFile?: string;
  /** PEM of the CAs trusted besides the system roots: --ca-file's, and NODE_EXTRA_CA_CERTS's. */
  extraCa: string[];
  client?: ClientIdentity;
  insecure: boolean;
}

const PEM_CERT = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

function readText(path: string, field: string, what: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError(`cannot read ${what} ${path}: ${errorMessage(error).replace(/^[A-Z]+: /, '')}`, field);
  }
}

/** Every certificate of a PEM file, each one parsed: a file with none, or a broken one, is refused. */
export function readCertificates(path: string, field: string, what = 'the CA file'): string[] {
  const pems = readText(path, field, what).match(PEM_CERT) ?? [];
  if (pems.length === 0) throw new ConfigError(`${path} holds no PEM certificate (-----BEGIN CERTIFICATE-----)`, field);
  pems.forEach((pem, i) => {
    try {
      new X509Certificate(pem);
    } catch {
      throw new ConfigError(`certificate ${i + 1} of ${path} is not a valid X.509 certificate`, field);
    }
  });
  return pems;
}

/** The client's certificate and key, checked to open (passphrase) and to belong together. */
function readIdentity(
  certFile: string,
  keyFile: string,
  env: Env,
  fields: Required<NonNullable<TlsFlags['fields']>>,
): ClientIdentity {
  const cert = readCertificates(certFile, fields.clientCert, 'the client certificate').join('\n');
  const key = readText(keyFile, fields.clientKey, 'the client key');
  const passphrase = env[PASSPHRASE_ENV] || undefined;
  try {
    createPrivateKey({ key, ...(passphrase !== undefined ? { passphrase } : {}) });
  } catch (error) {
    const encrypted = /ENCRYPTED/.test(key);
    const why = encrypted
      ? passphrase === undefined
        ? `it is encrypted: give its passphrase in ${PASSPHRASE_ENV}`
        : `${PASSPHRASE_ENV} does not open it`
      : 'it is not a PEM private key';
    throw new ConfigError(
      `cannot use ${keyFile}: ${why} (${(error as { code?: string }).code ?? 'invalid key'})`,
      fields.clientKey,
    );
  }
  try {
    createSecureContext({ cert, key, ...(passphrase !== undefined ? { passphrase } : {}) });
  } catch {
    throw new ConfigError(`${keyFile} is not the key of ${certFile}`, fields.clientKey);
  }
  return {
    certFile,
    keyFile,
    cert,
    key,
    ...(passphrase !== undefined ? { passphrase, passphraseEnv: PASSPHRASE_ENV } : {}),
  };
}

/** NODE_EXTRA_CA_CERTS keeps working beside --ca-file (giving Node a `ca` replaces its extra CAs). */
function nodeExtraCa(env: Env): string[] {
  const path = env.NODE_EXTRA_CA_CERTS;
  return path ? readCertificates(path, 'NODE_EXTRA_CA_CERTS') : [];
}

export function loadTls(flags: TlsFlags, env: Env, cwd = process.cwd()): TlsSettings {
  const fields = { caFile: '--ca-file', clientCert: '--client-cert', clientKey: '--client-key', ...flags.fields };
  if ((flags.clientCert === undefined) !== (flags.clientKey === undefined)) {
    throw new ConfigError(
      'a client certificate needs its key: give both the certificate and the key',
      flags.clientCert === undefined ? fields.clientCert : fields.clientKey,
    );
  }
  const caFile = flags.caFile === undefined ? undefined : resolve(cwd, flags.caFile);
  const extraCa = [...(caFile ? readCertificates(caFile, fields.caFile) : []), ...nodeExtraCa(env)];
  const client =
    flags.clientCert && flags.clientKey
      ? readIdentity(resolve(cwd, flags.clientCert), resolve(cwd, flags.clientKey), env, fields)
      : undefined;
  return { ...(caFile ? { caFile } : {}), extraCa, ...(client ? { client } : {}), insecure: flags.insecure === true };
}

/** The TLS options of a connection: the system roots plus the extra CAs, the client's identity, verification. */
export function connectionTls(t: TlsSettings): {
  ca?: string[];
  cert?: string;
  key?: string;
  passphrase?: string;
  rejectUnauthorized: boolean;
} {
  return {
    ...(t.extraCa.length ? { ca: [...rootCertificates, ...t.extraCa] } : {}),
    ...(t.client
      ? {
          cert: t.client.cert,
          key: t.client.key,
          ...(t.client.passphrase !== undefined ? { passphrase: t.client.passphrase } : {}),
        }
      : {}),
    rejectUnauthorized: !t.insecure,
  };
}
