// How a run reaches its target, the way the user's network does: the proxy (proxy.ts) and the TLS
// trust and identity (tls.ts), resolved once from flags, config and environment, then handed to the
// Node transport and to k6 alike. What it says of itself (console, report) never carries a secret.
import { proxyFor, proxySourceFor, redactProxy, resolveProxy, type Env, type ProxySettings } from './proxy.ts';
import { loadTls, type TlsFlags, type TlsSettings } from './tls.ts';

export interface NetworkFlags extends TlsFlags {
  proxy?: string;
  /** How the user named the proxy (`--proxy`, `targets.staging.proxy`). */
  proxyField?: string;
}

export interface Network {
  proxy: ProxySettings;
  tls: TlsSettings;
}

/** No flag, an empty environment: direct, system roots, verification on. */
export const DIRECT: Network = {
  proxy: { http: '', https: '', noProxy: '', from: { http: '', https: '' } },
  tls: { extraCa: [], insecure: false },
};

export function resolveNetwork(flags: NetworkFlags, env: Env, cwd = process.cwd()): Network {
  const explicit = flags.proxy === undefined ? undefined : { url: flags.proxy, field: flags.proxyField ?? '--proxy' };
  return { proxy: resolveProxy(explicit, env), tls: loadTls(flags, env, cwd) };
}

/** What the report records of the network (report.json `network`): the proxy redacted, files by path. */
export interface NetworkFacts {
  /** The proxy the target's requests went through (credentials redacted), null when direct. */
  proxy: string | null;
  /** Where that proxy came from: `--proxy`, a config field, `HTTPS_PROXY`… */
  proxyFrom?: string;
  caFile?: string;
  clientCert?: string;
  /** "off" when --insecure: a certificate made that way says so. */
  tlsVerification: 'on' | 'off';
}

export function networkFacts(n: Network, baseUrl: string): NetworkFacts {
  const proxy = proxyFor(baseUrl, n.proxy);
  return {
    proxy: proxy === undefined ? null : redactProxy(proxy),
    ...(proxy !== undefined ? { proxyFrom: proxySourceFor(baseUrl, n.proxy) } : {}),
    ...(n.tls.caFile ? { caFile: n.tls.caFile } : {}),
    ...(n.tls.client ? { clientCert: n.tls.client.certFile } : {}),
    tlsVerification: n.tls.insecure ? 'off' : 'on',
  };
}

/** The lines a run prints at start about its network (none when direct with defaults). */
export function networkLines(n: Network, baseUrl: string): string[] {
  const f = networkFacts(n, baseUrl);
  const lines: string[] = [];
  if (f.proxy) lines.push(`Proxy: ${f.proxy} (from ${f.proxyFrom}) for ${new URL(baseUrl).host}`);
  else if (n.proxy.http || n.proxy.https)
    lines.push(`Proxy: none for ${new URL(baseUrl).host} (NO_PROXY or loopback: direct)`);
  if (f.caFile) lines.push(`Trusting the CA file ${f.caFile} besides the system roots`);
  if (f.clientCert) lines.push(`Client certificate: ${f.clientCert}`);
  if (n.tls.insecure)
    lines.push("WARNING: TLS verification was off (--insecure): the target's certificate was not checked");
  return lines;
}
