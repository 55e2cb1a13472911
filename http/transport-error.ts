// What undici's failures mean, in one line each: `METHOD URL: what happened[: the fix]`, with a stable
// code (core/errors.ts TransportCode). A failure on the client's side (a CA not trusted, a client
// certificate wanted, a proxy refusing, a name no DNS knows) names its cause and its fix, so that it is
// never read as the service's fault. Never a stack, never the key.
import { TransportError, type TransportCode } from '../core/errors.ts';
import type { HttpRequest } from '../core/exchange.ts';
import { redactText } from '../core/redact.ts';
import { redactProxy } from './proxy.ts';

const CODE_MAP: Record<string, TransportCode> = {
  ECONNREFUSED: 'CONNECTION_REFUSED',
  ECONNRESET: 'CONNECTION_RESET',
  EPIPE: 'CONNECTION_RESET',
  UND_ERR_SOCKET: 'CONNECTION_RESET',
  UND_ERR_CLOSED: 'CONNECTION_RESET',
  UND_ERR_CONNECT_TIMEOUT: 'TIMEOUT',
  UND_ERR_HEADERS_TIMEOUT: 'TIMEOUT',
  UND_ERR_BODY_TIMEOUT: 'TIMEOUT',
  UND_ERR_ABORTED: 'TIMEOUT',
  ABORT_ERR: 'TIMEOUT',
  ENOTFOUND: 'DNS',
  EAI_AGAIN: 'DNS',
  UND_ERR_HEADERS_OVERFLOW: 'PROTOCOL',
  UND_ERR_RES_CONTENT_LENGTH_MISMATCH: 'PROTOCOL',
  UND_ERR_RES_EXCEEDED_MAX_SIZE: 'PROTOCOL',
};

const CA_FIX =
  'give the CA that signed it with --ca-file PATH (PEM; NODE_EXTRA_CA_CERTS works too), or --insecure to test without verification';

/** Node's certificate verification codes, by what they mean to the user. */
const UNTRUSTED = [
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_GET_ISSUER_CERT',
  'CERT_UNTRUSTED',
  'CERT_SIGNATURE_FAILURE',
];
const EXPIRED = ['CERT_HAS_EXPIRED', 'CERT_NOT_YET_VALID'];
/** TLS alerts a server sends when it wanted a client certificate (TLS 1.3's certificate_required; 1.2's handshake_failure after a request). */
const CLIENT_CERT_ALERTS = [
  'ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED',
  'ERR_SSL_SSLV3_ALERT_BAD_CERTIFICATE',
  'ERR_SSL_TLSV1_ALERT_UNKNOWN_CA',
  'ERR_SSL_SSLV3_ALERT_CERTIFICATE_UNKNOWN',
];

export const CLIENT_CERT_FIX = 'give a client certificate the server accepts with --client-cert PATH --client-key PATH';

/** Undici's messages are one line, but a parser error can quote what the server sent: keep it short. */
const MAX_DETAIL = 160;

interface RawError {
  code?: string;
  name?: string;
  message?: string;
  cause?: RawError;
}

/** The code that says most: a wrapped error's own (undici wraps a TLS or socket error as `cause`). */
const codeOf = (err: RawError): string => err.cause?.code ?? err.code ?? '';

const PROXY_REFUSED = /Proxy response \((\d{3})\)|Proxy Authentication Required \((\d{3})\)/;

function tlsKind(code: string): boolean {
  return (
    [...UNTRUSTED, ...EXPIRED, ...CLIENT_CERT_ALERTS, 'ERR_TLS_CERT_ALTNAME_INVALID'].includes(code) ||
    code.startsWith('ERR_SSL_')
  );
}

export function kindOf(err: RawError, proxy?: string): TransportCode {
  // undici's refused tunnel is a RequestAbortedError (name AbortError): read before the timeouts.
  if (PROXY_REFUSED.test(err.message ?? '') || PROXY_REFUSED.test(err.cause?.message ?? '')) return 'PROXY';
  if (err.name === 'TimeoutError' || err.name === 'AbortError') return 'TIMEOUT';
  const code = codeOf(err);
  // Proxied, the transport never connects to the target itself: a connection that fails is the proxy's.
  if (proxy && ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN'].includes(code)) return 'PROXY';
  if (tlsKind(code) || code === 'EPROTO') return 'TLS';
  if (CODE_MAP[code]) return CODE_MAP[code];
  if (CODE_MAP[err.code ?? '']) return CODE_MAP[err.code ?? '']!;
  if (err.name === 'HTTPParserError' || code.startsWith('HPE_')) return 'PROTOCOL';
  return 'OTHER';
}

const hostOf = (url: string): string => new URL(url).host;

function proxyDetail(err: RawError, url: string, proxy: string | undefined): string {
  const via = `the proxy ${redactProxy(proxy ?? '(none)')}`;
  const m = PROXY_REFUSED.exec(`${err.message ?? ''} ${err.cause?.message ?? ''}`);
  const status = m?.[1] ?? m?.[2];
  if (status === '407')
    return `${via} wants credentials (407 Proxy Authentication Required): give them in the proxy URL, http://USER:PASSWORD@host:port (--proxy or HTTPS_PROXY)`;
  if (status === '403')
    return `${via} refused to connect to ${hostOf(url)} (403): ask for it to be allowed, or list the host in NO_PROXY if it is reachable directly`;
  if (status)
    return `${via} could not reach ${hostOf(url)} (${status}): the proxy's DNS may not know the host, or the target refused it`;
  const code = codeOf(err);
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return `${via} has a host name no DNS knows (${code}): check --proxy or HTTPS_PROXY/HTTP_PROXY`;
  return `cannot connect to ${via} (${code || 'refused'}): check --proxy or HTTPS_PROXY/HTTP_PROXY, or list ${new URL(url).hostname} in NO_PROXY`;
}

function tlsDetail(err: RawError, url: string): string {
  const code = codeOf(err);
  const text = (err.cause?.message ?? err.message ?? '').split('\n')[0]!.slice(0, MAX_DETAIL);
  if (UNTRUSTED.includes(code)) return `the server's certificate is not trusted (${code}): ${CA_FIX}`;
  if (EXPIRED.includes(code))
    return `the server's certificate is expired or not yet valid (${code}): the service must renew it; --insecure tests without verification`;
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID')
    return `the server's certificate is not for ${new URL(url).hostname} (host name mismatch: ${text}): use a base URL with a name the certificate lists`;
  if (CLIENT_CERT_ALERTS.includes(code))
    return `the server refused the TLS handshake for want of a client certificate it accepts (${code}): ${CLIENT_CERT_FIX}`;
  if (/wrong version number|packet length too long|http request/i.test(text))
    return `the port does not speak TLS (${code}: ${text}): did you mean http://?`;
  return `TLS handshake failed (${code}: ${text})`;
}

function detailOf(
  kind: TransportCode,
  err: RawError,
  req: HttpRequest,
  timeoutMs: number,
  proxy: string | undefined,
): string {
  if (kind === 'TIMEOUT')
    return `no complete response within ${timeoutMs} ms${proxy ? ` (through the proxy ${redactProxy(proxy)})` : ''}`;
  if (kind === 'PROXY') return proxyDetail(err, req.url, proxy);
  if (kind === 'TLS') return tlsDetail(err, req.url);
  if (kind === 'CONNECTION_REFUSED') return 'connection refused (is the server running and the port right?)';
  if (kind === 'CONNECTION_RESET') return 'connection closed before the response was complete';
  if (kind === 'DNS') {
    const how = proxy
      ? `through the proxy ${redactProxy(proxy)}`
      : 'with no proxy in use (set HTTPS_PROXY or --proxy if only your proxy resolves it)';
    return `cannot resolve ${new URL(req.url).hostname} (${codeOf(err)}), ${how}`;
  }
  const text = (err.message ?? 'unknown error').split('\n')[0]!.slice(0, MAX_DETAIL);
  if (err.code === 'UND_ERR_HEADERS_OVERFLOW') return 'response headers too large';
  if (kind === 'PROTOCOL') return `the response is not valid HTTP/1.1 (${text})`;
  return `${err.code ?? err.name ?? 'error'}: ${text}`;
}

/** The bearer token of a request, so that no error message can ever carry it. */
function secretsOf(req: HttpRequest): string[] {
  const auth = req.headers['authorization'];
  if (!auth) return [];
  const token = auth.replace(/^\s*\S+\s+/, '');
  return [auth, token];
}

/** `proxy`: the proxy the request went through, when one did. */
export function toTransportError(error: unknown, req: HttpRequest, timeoutMs: number, proxy?: string): TransportError {
  const err = (error ?? {}) as RawError;
  const kind = kindOf(err, proxy);
  const message = `${req.method} ${req.url}: ${detailOf(kind, err, req, timeoutMs, proxy)}`;
  return new TransportError(kind, redactText(message, secretsOf(req)));
}

/** Failures no retry can mend: the client's configuration, or a name or port that is not there. */
export const CANNOT_SUCCEED: readonly TransportCode[] = ['TLS', 'PROXY', 'DNS', 'CONNECTION_REFUSED'];
