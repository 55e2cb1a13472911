// Hostile loopback servers for tests: each misbehaves in one way a server under development does
// (refuses, resets, hangs, trickles, floods, lies about its content, redirects away, closes keep-alive
// connections). Each records what it received, so a test can assert what petcert sent where.
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createNetServer, type Server, type Socket } from 'node:net';
import { lowerCaseHeaders } from '../../core/exchange.ts';

export interface ReceivedRequest {
  method: string;
  url: string;
  /** Lower-case names. */
  headers: Record<string, string>;
}

export interface HostileServer {
  /** http://127.0.0.1:PORT/v1 */
  baseUrl: string;
  origin: string;
  close(): Promise<void>;
  requests(): ReceivedRequest[];
}

type HttpHandler = (req: IncomingMessage, res: ServerResponse, n: number) => void;
type RawHandler = (socket: Socket, head: ReceivedRequest | undefined) => void;

const JSON_TYPE = { 'content-type': 'application/json' };

async function started(server: Server, sockets: Set<Socket>, received: ReceivedRequest[]): Promise<HostileServer> {
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const origin = `http://127.0.0.1:${port}`;
  return {
    baseUrl: `${origin}/v1`,
    origin,
    requests: () => [...received],
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** An HTTP server whose handler misbehaves at the HTTP level. */
export async function httpServer(handler: HttpHandler): Promise<HostileServer> {
  const received: ReceivedRequest[] = [];
  const sockets = new Set<Socket>();
  const server = createHttpServer((req, res) => {
    received.push({ method: req.method ?? '', url: req.url ?? '', headers: lowerCaseHeaders(req.headers) });
    req.resume();
    res.on('error', () => {});
    handler(req, res, received.length);
  });
  server.on('clientError', (_err, socket) => socket.destroy());
  return started(server, sockets, received);
}

/** Parses the request line and headers of a raw request, enough to record it. */
function parseHead(text: string): ReceivedRequest | undefined {
  const end = text.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const [line = '', ...rest] = text.slice(0, end).split('\r\n');
  const [method = '', url = ''] = line.split(' ');
  const headers: Record<string, string> = {};
  for (const h of rest) {
    const i = h.indexOf(':');
    if (i > 0) headers[h.slice(0, i).trim().toLowerCase()] = h.slice(i + 1).trim();
  }
  return { method, url, headers };
}

/** A TCP server that talks (or does not talk) HTTP by hand: `handler` runs once a request head arrived. */
export async function rawServer(
  handler: RawHandler,
  /** Takes the connection over entirely when it returns true; `record` logs a request it parsed. */
  onConnect?: (socket: Socket, record: (head: string) => void) => boolean,
): Promise<HostileServer> {
  const received: ReceivedRequest[] = [];
  const sockets = new Set<Socket>();
  const record = (head: string): void => {
    const parsed = parseHead(head);
    if (parsed) received.push(parsed);
  };
  const server = createNetServer((socket) => {
    if (onConnect?.(socket, record)) return;
    let text = '';
    const onData = (chunk: Buffer): void => {
      text += chunk.toString('latin1');
      const head = parseHead(text);
      if (!head) return;
      socket.off('data', onData);
      received.push(head);
      handler(socket, head);
    };
    socket.on('data', onData);
  });
  return started(server, sockets, received);
}

/** Below the kernels' ephemeral ranges (Linux 32768–60999, macOS 49152–65535): port 0 never hands these out. */
const UNEPHEMERAL = { from: 20_000, count: 12_000 };

/** Whether 127.0.0.1:port can be listened on now. */
function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createNetServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

/**
 * A port nobody listens on, for a connection to be refused or a k6 REST API to take. Not one a port-0
 * server held and gave back: with the suite's files in parallel another server may take that number before
 * it is used (a TIMEOUT instead of CONNECTION_REFUSED), while nobody in the suite asks
 * for a port below the range.
 */
export async function unusedPort(besides: readonly number[] = []): Promise<number> {
  for (let tries = 0; tries < 50; tries++) {
    const port = UNEPHEMERAL.from + Math.floor(Math.random() * UNEPHEMERAL.count);
    if (!besides.includes(port) && (await canListen(port))) return port;
  }
  throw new Error(
    `no port to refuse a connection on in ${UNEPHEMERAL.from}..${UNEPHEMERAL.from + UNEPHEMERAL.count - 1}`,
  );
}

/** A server that is not there: connecting is refused (unusedPort). */
export async function refused(): Promise<HostileServer> {
  const origin = `http://127.0.0.1:${await unusedPort()}`;
  return { baseUrl: `${origin}/v1`, origin, requests: () => [], close: async () => {} };
}

/** Accepts the connection, reads the request and never answers. */
export function silent(): Promise<HostileServer> {
  return rawServer(() => {});
}

/** Resets the connection as soon as it is accepted (before any request is read). */
export function resetOnConnect(): Promise<HostileServer> {
  return rawServer(
    () => {},
    (socket) => {
      socket.resetAndDestroy();
      return true;
    },
  );
}

/** Sends the status line, headers and part of a JSON body, then resets the connection. */
export function resetMidResponse(): Promise<HostileServer> {
  return rawServer((socket) => {
    socket.write('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n[{"id":1,"na');
    setTimeout(() => socket.resetAndDestroy(), 20);
  });
}

/** Answers with something that is not HTTP at all. */
export function notHttp(): Promise<HostileServer> {
  return rawServer((socket) => socket.end('SSH-2.0-OpenSSH_9.6\r\nProtocol mismatch.\r\n'));
}

/** Sends the status line, then one header byte every `intervalMs`, never finishing the head. */
export function slowHeaders(intervalMs = 200): Promise<HostileServer> {
  return rawServer((socket) => {
    socket.write('HTTP/1.1 200 OK\r\n');
    const timer = setInterval(() => {
      if (socket.destroyed) clearInterval(timer);
      else socket.write('X');
    }, intervalMs);
    socket.on('close', () => clearInterval(timer));
  });
}

/** A valid JSON body sent one byte every `intervalMs`. */
export function trickle(intervalMs = 50, body = '[]'.padEnd(400, ' ')): Promise<HostileServer> {
  return httpServer((_req, res) => {
    res.writeHead(200, { ...JSON_TYPE, 'content-length': String(Buffer.byteLength(body)) });
    let i = 0;
    const timer = setInterval(() => {
      if (res.destroyed || i >= body.length) {
        clearInterval(timer);
        if (!res.destroyed) res.end();
        return;
      }
      res.write(body[i]);
      i += 1;
    }, intervalMs);
    res.on('close', () => clearInterval(timer));
  });
}

/** A JSON array body of about `bytes` bytes (chunked), streamed as fast as the client reads it. */
export function hugeBody(bytes = 64 * 1024 * 1024): Promise<HostileServer> {
  const chunk = Buffer.from(',{"id":1,"name":"x","categoryId":1}'.repeat(2_000));
  return httpServer((_req, res) => {
    res.writeHead(200, JSON_TYPE);
    let sent = 0;
    const pump = (): void => {
      while (!res.destroyed && sent < bytes) {
        const ok = res.write(
          sent === 0 ? Buffer.concat([Buffer.from('[{"id":0,"name":"x","categoryId":1}'), chunk]) : chunk,
        );
        sent += chunk.length;
        if (!ok) return void res.once('drain', pump);
      }
      if (!res.destroyed) res.end(']');
    };
    pump();
  });
}

/** Answers every request with `status`, the given content type and body. */
export function fixed(status: number, contentType: string | undefined, body: string): Promise<HostileServer> {
  return httpServer((_req, res) => {
    res.writeHead(status, contentType === undefined ? {} : { 'content-type': contentType });
    res.end(body);
  });
}

export const invalidJson = (): Promise<HostileServer> => fixed(200, 'application/json', '[{"id": 1, "name": "Rex",');

export const htmlErrorPages = (status = 502): Promise<HostileServer> =>
  fixed(
    status,
    'text/html; charset=utf-8',
    `<html><head><title>${status} Bad Gateway</title></head><body><center><h1>${status} Bad Gateway</h1></center><hr><center>nginx</center></body></html>`,
  );

/** JSON-looking bodies served as text/plain. */
export const wrongContentType = (): Promise<HostileServer> =>
  fixed(200, 'text/plain', '[{"id":1,"name":"Rex","categoryId":1,"status":"available"}]');

/** Every request answered 500/502/503/504 in turn, sometimes with a Retry-After. */
export function storm5xx(): Promise<HostileServer> {
  const statuses = [500, 502, 503, 504];
  return httpServer((_req, res, n) => {
    const status = statuses[n % statuses.length]!;
    res.writeHead(status, { ...JSON_TYPE, ...(status === 503 ? { 'retry-after': '1' } : {}) });
    res.end(JSON.stringify({ code: 'INTERNAL', message: 'upstream failed', status }));
  });
}

/** Answers `[]` and then closes the connection, without announcing it (`announce` adds Connection: close). */
export function closesKeepAlive(announce = false): Promise<HostileServer> {
  return httpServer((_req, res) => {
    res.writeHead(200, { ...JSON_TYPE, 'content-length': '2', ...(announce ? { connection: 'close' } : {}) });
    res.end('[]', () => res.socket?.destroySoon());
  });
}

/** A recording server that answers every request 200 `[]`: the other origin of a redirect. */
export function recorder(): Promise<HostileServer> {
  return fixed(200, 'application/json', '[]');
}

export interface RedirectServer extends HostileServer {
  /** The redirect target (another origin), when redirecting cross-origin. */
  target: HostileServer;
}

/** Redirects every request (`status`) to the same path on another origin, or on the same origin under /elsewhere. */
export async function redirecting(crossOrigin = true, status = 307): Promise<RedirectServer> {
  const target = await recorder();
  const server = await httpServer((req, res) => {
    const path = req.url ?? '/';
    res.writeHead(status, {
      location: crossOrigin ? `${target.origin}${path}` : `/elsewhere${path}`,
      'content-length': '0',
    });
    res.end();
  });
  return {
    ...server,
    target,
    close: async () => {
      await server.close();
      await target.close();
    },
  };
}

/**
 * Speaks keep-alive without announcing a timeout, then closes each connection after `idleMs` idle
 * (with a reset when `reset`): a client reusing the connection races the close.
 */
export function idleCloser(idleMs = 5, reset = false): Promise<HostileServer> {
  return rawServer(
    () => {},
    (socket, record) => {
      let buffer = '';
      let timer: NodeJS.Timeout | undefined;
      const arm = (): void => {
        clearTimeout(timer);
        timer = setTimeout(() => (reset ? socket.resetAndDestroy() : socket.end()), idleMs);
      };
      socket.on('close', () => clearTimeout(timer));
      socket.on('data', (chunk: Buffer) => {
        buffer += chunk.toString('latin1');
        for (let end = buffer.indexOf('\r\n\r\n'); end >= 0; end = buffer.indexOf('\r\n\r\n')) {
          const length = Number(/content-length:\s*(\d+)/i.exec(buffer.slice(0, end))?.[1] ?? 0);
          if (buffer.length < end + 4 + length) break;
          record(buffer.slice(0, end + 4));
          buffer = buffer.slice(end + 4 + length);
          if (!socket.destroyed)
            socket.write('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n[]');
          arm();
        }
      });
      // The idle clock starts after the first answer (a keep-alive timeout, not a connect timeout).
      return true;
    },
  );
}

/** Response headers past any sane size (a misconfigured proxy's cookie jar). */
export function hugeHeaders(bytes = 70 * 1024): Promise<HostileServer> {
  return rawServer((socket) => {
    socket.end(
      `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nSet-Cookie: ${'c'.repeat(bytes)}\r\nContent-Length: 2\r\n\r\n[]`,
    );
  });
}

/** Announces a longer body than it sends, then closes. */
export function shortBody(): Promise<HostileServer> {
  return rawServer((socket) => {
    socket.end('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n[{"id":1}]');
  });
}

/**
 * A TCP proxy in front of a healthy server that drops each client connection once it has been idle
 * (no request in flight) for `idleMs`, unannounced (a load balancer with a short idle timeout): keep-alive reuse races the close.
 */
export async function idleClosingProxy(targetPort: number, idleMs = 30, reset = true): Promise<HostileServer> {
  const { connect } = await import('node:net');
  return rawServer(
    () => {},
    (client, record) => {
      const upstream = connect(targetPort, '127.0.0.1');
      let timer: NodeJS.Timeout | undefined;
      const drop = (): void => {
        upstream.destroy();
        if (reset) client.resetAndDestroy();
        else client.end();
      };
      const arm = (): void => {
        clearTimeout(timer);
        timer = setTimeout(drop, idleMs);
      };
      // Idle means no request in flight: a request stops the clock, its answer restarts it.
      client.on('data', (d: Buffer) => {
        record(d.toString('latin1'));
        upstream.write(d);
        clearTimeout(timer);
      });
      upstream.on('data', (d: Buffer) => {
        if (!client.destroyed) client.write(d);
        arm();
      });
      upstream.on('error', () => client.destroy());
      upstream.on('close', () => client.destroy());
      client.on('close', () => {
        clearTimeout(timer);
        upstream.destroy();
      });
      // Like a keep-alive timeout (nginx keepalive_timeout), the clock starts after the first answer.
      return true;
    },
  );
}

// ——— Rate-limit liars: the reference server with one lie in its rate-limit answers (every wait
// ends: docs/decisions/006). Each is a response edit, so tests use it in-process on a fake clock (testkit/load/in-process.ts)
// or over a socket (`liar`).

/** A response edit; `serverNowMs` is the server's clock at the answer. */
export type RateLimitLie = (
  res: { status: number; headers: Record<string, string>; body: string },
  serverNowMs: number,
) => { status: number; headers: Record<string, string>; body: string };

const unixSeconds = (ms: number): number => Math.floor(ms / 1000);

/** Every lie by name, each a fresh closure (some remember what they told). */
export const RATE_LIMIT_LIES = {
  /** 429s ask for an hour, whatever their Reset says (the minute's may be seconds away). */
  'huge Retry-After': (): RateLimitLie => (res) =>
    res.status === 429 ? { ...res, headers: { ...res.headers, 'retry-after': '3600' } } : res,
  /** Every X-RateLimit-Reset lies 30 s in the past. */
  'Reset in the past': (): RateLimitLie => (res, now) => ({
    ...res,
    headers: { ...res.headers, 'x-ratelimit-reset': String(unixSeconds(now) - 30) },
  }),
  /** Once a key is refused, every answer is a 429 whose Reset and Retry-After stay 2 s away. */
  'Reset that never arrives': (): RateLimitLie => {
    let refused = false;
    return (res, now) => {
      refused ||= res.status === 429;
      if (!refused) return res;
      const headers = {
        ...res.headers,
        'x-ratelimit-remaining': '0',
        'x-ratelimit-reset': String(unixSeconds(now) + 2),
        'retry-after': '2',
      };
      return {
        status: 429,
        headers,
        body: JSON.stringify({ code: 'RATE_LIMITED', message: 'try again', status: 429 }),
      };
    };
  },
  /** 429s ask to come back at the end of 2100, as an HTTP-date. */
  'Retry-After as a far-future HTTP-date': (): RateLimitLie => (res) =>
    res.status === 429 ? { ...res, headers: { ...res.headers, 'retry-after': 'Fri, 31 Dec 2100 23:59:59 GMT' } } : res,
} as const;

export type LieName = keyof typeof RATE_LIMIT_LIES;
