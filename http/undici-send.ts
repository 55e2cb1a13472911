// The one HTTP client of petcert under Node: undici with keep-alive, per-request timeouts, a cap on
// body size and no redirect following (a redirect is reported as the response it is; the key is never
// sent to another origin). Everything above this file only sees `Send`.
import type { Agent, Dispatcher } from 'undici';
import { ConfigError, TransportError, type TransportCode } from '../core/errors.ts';
import { lowerCaseHeaders, type Exchange, type HttpRequest, type Send } from '../core/exchange.ts';
import { redactText } from '../core/redact.ts';
import { retry } from '../core/retry.ts';
import { DEFAULT_REQUEST_TIMEOUT_MS } from '../core/request-timeout.ts';

export interface NodeSendOptions {
  /** Whole-request deadline (connect, headers and body, retry included), ms. */
  timeoutMs?: number;
  /** Bytes of body kept; the rest is discarded and the response marked truncated. */
  maxBodyBytes?: number;
  /** Keep-alive connections per origin. */
  connections?: number;
}

export const DEFAULT_SEND_OPTIONS = { timeoutMs: DEFAULT_REQUEST_TIMEOUT_MS, maxBodyBytes: 1024 * 1024, connections: 32 } as const;

export interface NodeTransport {
  send: Send;
  close(): Promise<void>;
}

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

const DETAIL: Partial<Record<TransportCode, string>> = {
  CONNECTION_REFUSED: 'connection refused (is the server running and the port right?)',
  CONNECTION_RESET: 'connection closed before the response was complete',
};

/** Undici's messages are one line, but a parser error can quote what the server sent: keep it short. */
const MAX_DETAIL = 160;

interface RawError {
  code?: string;
  name?: string;
  message?: string;
  cause?: { code?: string };
}

function kindOf(err: RawError): TransportCode {
  if (err.name === 'TimeoutError' || err.name === 'AbortError') return 'TIMEOUT';
  const code = err.code ?? err.cause?.code ?? '';
  if (CODE_MAP[code]) return CODE_MAP[code];
  if (err.name === 'HTTPParserError' || code.startsWith('HPE_')) return 'PROTOCOL';
  return 'OTHER';
}

function detailOf(kind: TransportCode, err: RawError, timeoutMs: number): string {
  if (kind === 'TIMEOUT') return `no complete response within ${timeoutMs} ms`;
  const fixed = DETAIL[kind];
  if (fixed) return fixed;
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

export function toTransportError(error: unknown, req: HttpRequest, timeoutMs: number): TransportError {
  const err = (error ?? {}) as RawError;
  const kind = kindOf(err);
  const message = `${req.method} ${req.url}: ${detailOf(kind, err, timeoutMs)}`;
  return new TransportError(kind, redactText(message, secretsOf(req)));
}

async function readCapped(body: Dispatcher.ResponseData['body'], cap: number): Promise<{ text: string; truncated: boolean }> {
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
  return !signal.aborted && kindOf(error as RawError) === 'CONNECTION_RESET';
}

function checkOptions(options: NodeSendOptions): void {
  const positive = (name: keyof NodeSendOptions, min: number): void => {
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
  const timeouts = { connect: { timeout: timeoutMs }, headersTimeout: timeoutMs, bodyTimeout: timeoutMs };
  const connections = options.connections ?? DEFAULT_SEND_OPTIONS.connections;
  // Every request rides keep-alive connections (reuse halves the cost of a run); its retries take
  // fresh ones (pipelining 0 = no keep-alive): see `retryable`.
  let agents: Promise<{ agent: Agent; fresh: Agent; request: typeof import('undici').request }> | undefined;
  const loadAgents = () =>
    (agents ??= undici().then(({ Agent, request }) => ({
      agent: new Agent({ connections, keepAliveTimeout: 4_000, ...timeouts }),
      fresh: new Agent({ connections, pipelining: 0, ...timeouts }),
      request,
    })));

  const dispatchRetrying = async (req: HttpRequest, signal: AbortSignal): Promise<Dispatcher.ResponseData> => {
    const { agent, fresh, request } = await loadAgents();
    const dispatch = (dispatcher: Agent): Promise<Dispatcher.ResponseData> =>
      request(req.url, { method: req.method as Dispatcher.HttpMethod, headers: req.headers, body: req.body, dispatcher, signal });
    return retry(1 + MAX_RETRIES, (n) => dispatch(n === 1 ? agent : fresh), (error) => retryable(error, signal));
  };

  /** Requests in flight, so that close() can abort them. */
  const inFlight = new Set<AbortController>();
  let closing = false;

  const send: Send = async (req) => {
    const sentAt = Date.now();
    const started = performance.now();
    // One deadline for the whole exchange: a body trickled a byte at a time never resets it. A plain
    // timer, cleared at the end (AbortSignal.timeout/any keep per-request garbage alive on long runs).
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    inFlight.add(controller);
    try {
      const res = await dispatchRetrying(req, controller.signal);
      const { text, truncated } = await readCapped(res.body, cap);
      const exchange: Exchange = {
        request: req,
        response: { status: res.statusCode, headers: lowerCaseHeaders(res.headers), body: text, ...(truncated ? { truncated } : {}) },
        sentAt,
        durationMs: performance.now() - started,
      };
      return exchange;
    } catch (error) {
      if (timedOut) throw toTransportError({ name: 'TimeoutError' }, req, timeoutMs);
      if (closing) throw new TransportError('OTHER', `${req.method} ${req.url}: the transport was closed while the request was in flight`);
      throw toTransportError(error, req, timeoutMs);
    } finally {
      clearTimeout(timer);
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

/** Lets requests in flight finish for a moment, then aborts them: closing never waits on a hung server. */
async function closeAgents(agents: Agent[], abortAll: () => void, graceMs = 500): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
  const closed = Promise.all(agents.map((a) => a.close()));
  await Promise.race([closed, grace]);
  clearTimeout(timer);
  abortAll();
  await closed;
}
