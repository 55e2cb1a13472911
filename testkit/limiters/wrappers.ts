// Wrappers any server can be put behind (a loopback proxy, so they work for the Python service too):
//   latencyMs  a server far away: each request reaches it latencyMs / 2 late and its answer comes back
//              latencyMs / 2 late (the server's Date is stamped in the middle, as over a real network);
//   jitterMs   answers held back a random 0..jitterMs each, so concurrent requests come back in another
//              order than the server answered them (docs/decisions/007: evidence in the server's order);
//   skewSeconds the server's clock is off: Date, X-RateLimit-Reset and an HTTP-date Retry-After are all
//              moved by it (Reset stays consistent with the skewed Date; delay-seconds are unchanged).
import { Agent, type IncomingHttpHeaders } from 'node:http';
import { BAD_GATEWAY, forward, listenLoopback, type Answer } from '../http/loopback-proxy.ts';
import { RATE_LIMIT_HEADERS } from '../../spec/contract.ts';

export interface WrapOptions {
  latencyMs?: number;
  jitterMs?: number;
  skewSeconds?: number;
  /** Random source in [0, 1) for the jitter (tests may fix it). */
  random?: () => number;
}

export interface Wrapped {
  baseUrl: string;
  close(): Promise<void>;
}

/** Shifts a decimal Unix time by whole seconds, keeping its fraction digits as sent. */
export function shiftUnixText(value: string, seconds: number): string {
  const m = /^(\d+)(\.\d+)?$/.exec(value.trim());
  if (!m) return value;
  return `${BigInt(m[1]!) + BigInt(seconds)}${m[2] ?? ''}`;
}

function shiftDate(value: string, seconds: number): string {
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? value : new Date(ms + seconds * 1000).toUTCString();
}

export function skewHeaders(headers: IncomingHttpHeaders, seconds: number): IncomingHttpHeaders {
  if (seconds === 0) return headers;
  const out = { ...headers };
  if (typeof out.date === 'string') out.date = shiftDate(out.date, seconds);
  const reset = out[RATE_LIMIT_HEADERS.reset];
  if (typeof reset === 'string') out[RATE_LIMIT_HEADERS.reset] = shiftUnixText(reset, seconds);
  const retry = out[RATE_LIMIT_HEADERS.retryAfter];
  if (typeof retry === 'string' && !/^\s*[\d.]+\s*$/.test(retry))
    out[RATE_LIMIT_HEADERS.retryAfter] = shiftDate(retry, seconds);
  return out;
}

const later = (ms: number, fn: () => void): void => void (ms > 0 ? setTimeout(fn, ms) : fn());

export async function wrapServer(baseUrl: string, options: WrapOptions): Promise<Wrapped> {
  // No keep-alive upstream: a pooled socket the server closes at its idle timeout would turn into a 502.
  const up = { target: new URL(baseUrl), agent: new Agent({ keepAlive: false, maxSockets: 256 }) };
  const half = (options.latencyMs ?? 0) / 2;
  const random = options.random ?? Math.random;
  return listenLoopback(up, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () =>
      later(half, () => {
        const headers = { ...req.headers, host: up.target.host };
        const answer = (a: Answer) =>
          later(half + random() * (options.jitterMs ?? 0), () => {
            // Node adds its own Date when the header is absent: keep the server's (skewed), never ours.
            res.sendDate = false;
            res.writeHead(a.status, skewHeaders(a.headers, options.skewSeconds ?? 0));
            res.end(a.body);
          });
        forward(up, req, headers, Buffer.concat(chunks), answer, () =>
          res.writeHead(BAD_GATEWAY.status, BAD_GATEWAY.headers).end(BAD_GATEWAY.body),
        );
      }),
    );
  });
}
