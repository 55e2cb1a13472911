// Which HTTP proxy a request goes through, decided once for Node and k6 alike: `--proxy URL` (or the
// config's `proxy`) for both schemes, else the variables every corporate runner sets, read as curl reads
// them (the lower-case name first), with NO_PROXY's hosts, domains and `*` going direct. Loopback always
// goes direct, as Go (and so k6) decides it: both engines then reach a loopback target the same way.
import { ConfigError } from '../core/errors.ts';

export type Env = Record<string, string | undefined>;

export interface ProxySettings {
  /** Proxy URL for http:// targets; '' goes direct. */
  http: string;
  /** Proxy URL for https:// targets; '' goes direct. */
  https: string;
  /** Hosts that go direct, comma-separated (NO_PROXY's syntax), loopback included. */
  noProxy: string;
  /** Where each proxy came from (`--proxy`, `HTTPS_PROXY`…), for what the run says. */
  from: { http: string; https: string };
}

/** Loopback goes direct whatever NO_PROXY says, as Go's http.ProxyFromEnvironment does. */
export const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'] as const;

/** The value of the first variable set (non-empty), and its name. */
function firstOf(env: Env, names: readonly string[]): { value: string; name: string } | undefined {
  for (const name of names) {
    const value = env[name]?.trim();
    if (value) return { value, name };
  }
  return undefined;
}

/** A proxy URL: a scheme-less `host:port` means http:// (curl and Go alike); only http(s) proxies. */
export function parseProxyUrl(raw: string, field: string): string {
  const text = raw.includes('://') ? raw : `http://${raw}`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ConfigError(
      `is not a proxy URL: ${JSON.stringify(redactProxy(raw))} (expected e.g. http://proxy.example.com:3128)`,
      field,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ConfigError(`must be an http:// or https:// proxy, got ${url.protocol}`, field);
  if (url.pathname !== '/' || url.search || url.hash)
    throw new ConfigError(
      `is a proxy's address: no path, query or fragment, got ${JSON.stringify(redactProxy(raw))}`,
      field,
    );
  return url.href.replace(/\/$/, '');
}

/** The proxy settings of a run: `explicit` (from --proxy or the config) for both schemes, else the environment. */
export function resolveProxy(explicit: { url: string; field: string } | undefined, env: Env): ProxySettings {
  const noProxy = [firstOf(env, ['no_proxy', 'NO_PROXY'])?.value, ...LOOPBACK_HOSTS].filter(Boolean).join(',');
  if (explicit) {
    const url = parseProxyUrl(explicit.url, explicit.field);
    return { http: url, https: url, noProxy, from: { http: explicit.field, https: explicit.field } };
  }
  const http = firstOf(env, ['http_proxy', 'HTTP_PROXY']);
  const https = firstOf(env, ['https_proxy', 'HTTPS_PROXY']);
  return {
    http: http ? parseProxyUrl(http.value, http.name) : '',
    https: https ? parseProxyUrl(https.value, https.name) : '',
    noProxy,
    from: { http: http?.name ?? '', https: https?.name ?? '' },
  };
}

interface NoProxyEntry {
  host: string;
  port: number;
}

/** NO_PROXY's entries as undici's EnvHttpProxyAgent reads them: host[:port], a leading `.` or `*.` dropped. */
function noProxyEntries(noProxy: string): NoProxyEntry[] {
  return noProxy
    .split(/[,\s]/)
    .filter(Boolean)
    .map((entry) => {
      const m = /^(.+):(\d+)$/.exec(entry);
      return { host: (m ? m[1]! : entry).replace(/^\*?\./, '').toLowerCase(), port: m ? Number(m[2]) : 0 };
    });
}

const DEFAULT_PORTS: Record<string, number> = { 'http:': 80, 'https:': 443 };

/** Whether a request to `target` goes direct: the same rule undici's EnvHttpProxyAgent applies. */
function bypasses(target: URL, noProxy: string): boolean {
  if (noProxy.split(/[,\s]/).includes('*')) return true;
  const host = target.host.replace(/:\d*$/, '').toLowerCase();
  const port = Number(target.port) || DEFAULT_PORTS[target.protocol] || 0;
  return noProxyEntries(noProxy).some(
    (e) => (!e.port || e.port === port) && (host === e.host || host.endsWith(`.${e.host}`)),
  );
}

/** The proxy a request to `url` goes through, or undefined when it goes direct. */
export function proxyFor(url: string, p: ProxySettings): string | undefined {
  const target = new URL(url);
  const proxy = target.protocol === 'https:' ? p.https : p.http;
  return proxy && !bypasses(target, p.noProxy) ? proxy : undefined;
}

/** Where the proxy for `url` came from (`--proxy`, `HTTPS_PROXY`…), '' when none. */
export const proxySourceFor = (url: string, p: ProxySettings): string =>
  new URL(url).protocol === 'https:' ? p.from.https : p.from.http;

/** A proxy URL fit to print: a user name and password in it become ***. */
export function redactProxy(proxy: string): string {
  return proxy.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^@/]*@/i, '$1***@');
}
