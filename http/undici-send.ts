// The one HTTP client of petcert under Node: undici with keep-alive, per-request timeouts, a cap on
// body size and no redirect following (a redirect is reported as the response it is; the key is never
// sent to another origin). It reaches the target the way the user's network does (network.ts): through
// the proxy the environment or --proxy names (undici's EnvHttpProxyAgent), trusting --ca-file besides
// the system roots, presenting the client certificate. Everything above this file only sees `Send`.
import type { Dispatcher, EnvHttpProxyAgent } from 'undici';
import { ConfigError, TransportError } from '../core/errors.ts';
import { lowerCaseHeaders, type Exchange, type HttpRequest, type Send } from '../core/exchange.ts';
import { retry } from '../core/retry.ts';
import { DEFAULT_REQUEST_TIMEOUT_MS } from '../core/request-timeout.ts';
import { DIRECT, type Network } from './network.ts';
import { proxyFor } from './proxy.ts';
import { connectionTls } from './tls.ts';
import { tlsAlertOf } from './tls-probe.ts';
import { kindOf, toTransportError } from './transport-error.ts';

export { toTransportError } from './transport-error.ts';

export interface NodeSendOptions {
  /** Whole-request deadline (connect, headers and body, retry included), ms. */
  timeoutMs?: number;
  /** Bytes of body kept; the rest is discarded and the response marked truncated. */
  maxBodyBytes?: number;
  /** Keep-alive connections per origin. */
  connections?: number;
  /** Proxy, trusted CAs, client certificate, verification (default: direct, system roots). */
  network?: Network;
}

export const DEFAULT_SEND_OPTIONS = {
  timeoutMs: DEFAULT_REQUEST_TIMEOUT_MS,
  maxBodyBytes: 1024 * 1024,
  connections: 32,
} as const;

export interface NodeTransport {
  send: Send;
  close(): Promise<void>;
}

async function readCapped(
  body: Dispatcher.ResponseData['body'],
  cap: number,
): Promise<{ text: string; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  for await (const chunk of body) {
    const buf = chunk as Buffer;
    if (size + buf.length > cap) {
      chunks.push(buf.subarray(0, cap - size));
      truncated = true;
      // Leaving the loop destroys the stream and its connection: the rest of the body is never read.
      break;
    }
    chunks.push(buf);
    size += buf.length;
  }
  return { text: Buffer.concat(chunks).toString('utf8'), truncated };
}

/** A fresh connection can still be refused or reset by a failing server: that is reported, after one more. */
const MAX_RETRIES = 2;

/**
 * A server may close an idle keep-alive connection just as we reuse it: the request dies with a reset
 * before any response byte, unread by the server. Like Go's and Node's clients, retry it (GET and POST
 * alike: unread by the server) — on a fresh connection, which no idle timeout can have closed: when
 * every pooled connection went idle together (a load balancer's idle timeout, several probes pausing at
 * once), another pooled one is as dead as the first (http/undici-send.e2e.test.ts). A server that really
 * crashes on the request crashes again and is reported; one that crashed by chance on a POST may see a
 * duplicate pet, which no check counts against it.
 */
function retryable(error: unknown, signal: AbortSignal): boolean {
  return !signal.aborted && kindOf(error as object) === 'CONNECTION_RESET';
}

function checkOptions(options: NodeSendOptions): void {
  const positive = (name: 'timeoutMs' | 'maxBodyBytes' | 'connections', min: number): void => {
    const value = options[name];
    if (value !== undefined && (!Number.isFinite(value) || value < min)) {
      throw new ConfigError(`must be a number >= ${min}, got ${String(value)}`, name);
    }
  };
  positive('timeoutMs', 1);
  positive('maxBodyBytes', 0);
  positive('connections', 1);
}

/**
 * undici is loaded on the first request, not at start-up: importing it costs more than the rest of
 * the command line together, and `petcert --help` or a usage error should not pay for it.
 */
let undiciModule: Promise<typeof import('undici')> | undefined;
const undici = () => (undiciModule ??= import('undici'));

export function createNodeTransport(options: NodeSendOptions = {}): NodeTransport {
  checkOptions(options);
  const timeoutMs = options.timeoutMs ?? DEFAULT_SEND_OPTIONS.timeoutMs;
  const cap = options.maxBodyBytes ?? DEFAULT_SEND_OPTIONS.maxBodyBytes;
  const connections = options.connections ?? DEFAULT_SEND_OPTIONS.connections;
  const network = options.network ?? DIRECT;
  const base = agentOptions(network, timeoutMs);
  // Every request rides keep-alive connections (reuse halves the cost of a run); its retries take
  // fresh ones (pipelining 0 = no keep-alive): see `retryable`.
  type Agents = { agent: EnvHttpProxyAgent; fresh: EnvHttpProxyAgent; request: typeof import('undici').request };
  let agents: Promise<Agents> | undefined;
  const loadAgents = () =>
    (agents ??= undici().then(({ EnvHttpProxyAgent, request }) => ({
      agent: new EnvHttpProxyAgent({ ...base, connections, keepAliveTimeout: 4_000 }),
      fresh: new EnvHttpProxyAgent({ ...base, connections, pipelining: 0 }),
      request,
    })));

  const dispatchRetrying = (
    { agent, fresh, request }: Agents,
    req: HttpRequest,
    signal: AbortSignal,
  ): Promise<Dispatcher.ResponseData> => {
    const dispatch = (dispatcher: EnvHttpProxyAgent): Promise<Dispatcher.ResponseData> =>
      request(req.url, {
        method: req.method as Dispatcher.HttpMethod,
        headers: req.headers,
        body: req.body,
        dispatcher,
        signal,
      });
    return retry(
      1 + MAX_RETRIES,
      (n) => dispatch(n === 1 ? agent : fresh),
      (error) => retryable(error, signal),
    );
  };

  /** Requests in flight, so that close() can abort them. */
  const inFlight = new Set<AbortController>();
  let closing = false;

  const send: Send = async (req) => {
    // Loading undici is petcert's own start-up, not the service's time: the deadline starts after it.
    const loaded = await loadAgents();
    const sentAt = Date.now();
    const started = performance.now();
    // One deadline for the whole exchange: a body trickled a byte at a time never resets it. A plain
    // timer, cleared at the end (AbortSignal.timeout/any keep per-request garbage alive on long runs).
    const controller = new AbortController();
    let timedOut = false;
    let abortSoon: NodeJS.Immediate | undefined;
    // At the deadline, what the socket has already reported (a refused connection, a reset, the last
    // bytes) is read first: on a loop stalled past the deadline, timers run before the poll that holds
    // it, and a port that refused at once would be reported as a timeout. setImmediate runs after it.
    const timer = setTimeout(() => {
      abortSoon = setImmediate(() => {
        timedOut = true;
        controller.abort();
      });
    }, timeoutMs);
    inFlight.add(controller);
    try {
      const res = await dispatchRetrying(loaded, req, controller.signal);
      const { text, truncated } = await readCapped(res.body, cap);
      const exchange: Exchange = {
        request: req,
        response: {
          status: res.statusCode,
          headers: lowerCaseHeaders(res.headers),
          body: text,
          ...(truncated ? { truncated } : {}),
        },
        sentAt,
        durationMs: performance.now() - started,
      };
      return exchange;
    } catch (error) {
      const proxy = proxyFor(req.url, network.proxy);
      if (timedOut) throw toTransportError({ name: 'TimeoutError' }, req, timeoutMs, proxy);
      if (closing)
        throw new TransportError(
          'OTHER',
          `${req.method} ${req.url}: the transport was closed while the request was in flight`,
        );
      throw await withTlsAlert(
        toTransportError(error, req, timeoutMs, proxy),
        req,
        network,
        timeoutMs - (performance.now() - started),
      );
    } finally {
      clearTimeout(timer);
      clearImmediate(abortSoon);
      inFlight.delete(controller);
    }
  };

  const close = async (): Promise<void> => {
    closing = true;
    if (!agents) return;
    const { agent, fresh } = await agents;
    await closeAgents([agent, fresh], () => {
      for (const c of inFlight) c.abort();
    });
  };
  return { send, close };
}

/** Probing for the alert takes this long at most (and never past the request's deadline). */
const ALERT_PROBE_MS = 1_000;

/**
 * An https connection closed before any answer may be a TLS 1.3 server refusing the client's (missing)
 * certificate: undici loses that alert, a bare connection reads it (tls-probe.ts).
 */
async function withTlsAlert(
  error: TransportError,
  req: HttpRequest,
  network: Network,
  leftMs: number,
): Promise<TransportError> {
  if (error.transport !== 'CONNECTION_RESET' || !req.url.startsWith('https:') || leftMs < 50) return error;
  const alert = await tlsAlertOf(req.url, network, Math.min(ALERT_PROBE_MS, leftMs));
  return alert ? toTransportError({ code: alert }, req, leftMs, proxyFor(req.url, network.proxy)) : error;
}

/**
 * The agents' options: the proxies and NO_PROXY given explicitly (undici then reads no variable itself:
 * network.ts decided, for k6 too), TLS for a direct connection (`connect`) and for one tunnelled
 * through the proxy (`requestTls`: undici's ProxyAgent opens the target's TLS with it).
 */
function agentOptions(network: Network, timeoutMs: number): EnvHttpProxyAgent.Options {
  const tls = connectionTls(network.tls);
  return {
    httpProxy: network.proxy.http,
    httpsProxy: network.proxy.https,
    noProxy: network.proxy.noProxy,
    connect: { timeout: timeoutMs, ...tls },
    requestTls: tls,
    proxyTls: { ...(tls.ca ? { ca: tls.ca } : {}) },
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  };
}

/** Lets requests in flight finish for a moment, then aborts them: closing never waits on a hung server. */
async function closeAgents(agents: EnvHttpProxyAgent[], abortAll: () => void, graceMs = 500): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
  const closed = Promise.all(agents.map((a) => a.close()));
  await Promise.race([closed, grace]);
  clearTimeout(timer);
  abortAll();
  await closed;
}
