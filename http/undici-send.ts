// The one HTTP client of petcert under Node: undici with keep-alive, per-request timeouts, a cap on
// body size and no redirect following (a redirect is reported as the response it is; the key is never
// sent to another origin). Everything above this file only sees `Send`.
import { Agent, request, type Dispatcher } from 'undici';
import { TransportError, type TransportCode } from '../core/errors.ts';
import { lowerCaseHeaders, type Exchange, type HttpRequest, type Send } from '../core/exchange.ts';

export interface NodeSendOptions {
  /** Whole-request deadline (connect, headers and body), ms. */
  timeoutMs?: number;
  /** Bytes of body kept; the rest is discarded and the response marked truncated. */
  maxBodyBytes?: number;
  /** Keep-alive connections per origin. */
  connections?: number;
}

export const DEFAULT_SEND_OPTIONS = { timeoutMs: 10_000, maxBodyBytes: 1024 * 1024, connections: 32 } as const;

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
};

function describeRequest(req: HttpRequest): string {
  return `${req.method} ${req.url}`;
}

export function toTransportError(error: unknown, req: HttpRequest, timeoutMs: number): TransportError {
  const err = error as { code?: string; name?: string; message?: string; cause?: { code?: string } };
  const code = err.code ?? err.cause?.code ?? '';
  const kind: TransportCode =
    err.name === 'TimeoutError' || err.name === 'AbortError'
      ? 'TIMEOUT'
      : CODE_MAP[code] ?? (code.startsWith('HPE_') || code === 'UND_ERR_INVALID_ARG' ? 'PROTOCOL' : 'OTHER');
  const detail =
    kind === 'TIMEOUT'
      ? `no complete response within ${timeoutMs} ms`
      : kind === 'CONNECTION_REFUSED'
        ? 'connection refused'
        : kind === 'CONNECTION_RESET'
          ? 'connection closed before the response was complete'
          : `${code || err.name || 'error'}: ${err.message ?? 'unknown'}`;
  return new TransportError(kind, `${describeRequest(req)}: ${detail}`);
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
      body.destroy();
      break;
    }
    chunks.push(buf);
    size += buf.length;
  }
  return { text: Buffer.concat(chunks).toString('utf8'), truncated };
}

export function createNodeTransport(options: NodeSendOptions = {}): NodeTransport {
  const timeoutMs = options.timeoutMs ?? DEFAULT_SEND_OPTIONS.timeoutMs;
  const cap = options.maxBodyBytes ?? DEFAULT_SEND_OPTIONS.maxBodyBytes;
  const agent = new Agent({
    connections: options.connections ?? DEFAULT_SEND_OPTIONS.connections,
    keepAliveTimeout: 4_000,
    connect: { timeout: timeoutMs },
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });

  const send: Send = async (req) => {
    const sentAt = Date.now();
    const started = performance.now();
    const signal = AbortSignal.timeout(timeoutMs);
    try {
      const res = await request(req.url, {
        method: req.method as Dispatcher.HttpMethod,
        headers: req.headers,
        body: req.body,
        dispatcher: agent,
        signal,
      });
      const { text, truncated } = await readCapped(res.body, cap);
      const exchange: Exchange = {
        request: req,
        response: { status: res.statusCode, headers: lowerCaseHeaders(res.headers), body: text, ...(truncated ? { truncated } : {}) },
        sentAt,
        durationMs: performance.now() - started,
      };
      return exchange;
    } catch (error) {
      throw toTransportError(error, req, timeoutMs);
    }
  };

  return { send, close: () => agent.close() };
}
