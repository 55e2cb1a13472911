// Wrappers any server can be put behind (a loopback proxy, so they work for the Python service too):
//   latencyMs  a server far away: each request reaches it latencyMs / 2 late and its answer comes back
//              latencyMs / 2 late (the server's Date is stamped in the middle, as over a real network);
//   jitterMs   answers held back a random 0..jitterMs each, so concurrent requests come back in another
//              order than the server answered them (§3 of issue 15: evidence in the server's order);
//   skewSeconds the server's clock is off: Date, X-RateLimit-Reset and an HTTP-date Retry-After are all
//              moved by it (Reset stays consistent with the skewed Date; delay-seconds are unchanged).
import { Agent, createServer, request, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
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
  if (typeof retry === 'string' && !/^\s*[\d.]+\s*$/.test(retry)) out[RATE_LIMIT_HEADERS.retryAfter] = shiftDate(retry, seconds);
  return out;
}

const later = (ms: number, fn: () => void): void => void (ms > 0 ? setTimeout(fn, ms) : fn());

export async function wrapServer(baseUrl: string, options: WrapOptions): Promise<Wrapped> {
  const target = new URL(baseUrl);
  // No keep-alive upstream: a pooled socket the server closes at its idle timeout would turn into a 502.
  const agent = new Agent({ keepAlive: false, maxSockets: 256 });
  const half = (options.latencyMs ?? 0) / 2;
  const random = options.random ?? Math.random;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => later(half, () => forward(req, Buffer.concat(chunks), res)));
  });
  function forward(req: IncomingMessage, body: Buffer, res: ServerResponse): void {
    const headers = { ...req.headers, host: target.host };
    const upstream = request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers, agent }, (up) => {
      const chunks: Buffer[] = [];
      up.on('data', (c: Buffer) => chunks.push(c));
      up.on('end', () => {
        const back = half + random() * (options.jitterMs ?? 0);
        later(back, () => {
          // Node adds its own Date when the header is absent: keep the server's (skewed), never ours.
          res.sendDate = false;
          res.writeHead(up.statusCode ?? 502, skewHeaders(up.headers, options.skewSeconds ?? 0));
          res.end(Buffer.concat(chunks));
        });
      });
    });
    upstream.on('error', () => {
      res.writeHead(502, { 'content-type': 'application/json' });
      res.end('{"code":"BAD_GATEWAY","message":"upstream failed","status":502}');
    });
    upstream.end(body);
  }
  server.keepAliveTimeout = 10_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}${target.pathname.replace(/\/+$/, '')}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        agent.destroy();
        server.close(() => resolve());
      }),
  };
}
