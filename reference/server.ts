// The node:http adapter: reads the request (body capped), calls the app, writes the answer. Limits
// keep slow or hostile clients from holding the server: header size, header and request timeouts.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { lowerCaseHeaders } from '../core/exchange.ts';
import { createApp, DEFAULT_MAX_BODY_BYTES, type ReferenceOptions } from './app.ts';
import { authorizationLines } from './auth.ts';
import { errorResponse } from './responses.ts';
import { BASE_PATH } from './routes.ts';
import { originForm } from './target.ts';
import type { AppRequest, AppResponse, Handle } from './types.ts';

export interface ListenOptions extends ReferenceOptions {
  host?: string;
  port?: number;
  /** Wraps the handler: tests build response-level faults (wrong status, dropped headers) with it. */
  wrap?: (handle: Handle) => Handle;
  /** Connection limits (defaults: SERVER_LIMITS); tests shorten the timeouts. */
  limits?: Partial<ServerLimits>;
}

export interface ServerLimits {
  maxHeaderSize: number;
  headersTimeout: number;
  requestTimeout: number;
  keepAliveTimeout: number;
  /** How often node looks for connections past their timeouts. */
  connectionsCheckingInterval: number;
}

export interface RunningServer {
  /** http://127.0.0.1:PORT/v1 */
  baseUrl: string;
  port: number;
  keys: Record<string, string>;
  close(): Promise<void>;
}

export const SERVER_LIMITS: Readonly<ServerLimits> = {
  maxHeaderSize: 16 * 1024,
  headersTimeout: 10_000,
  requestTimeout: 30_000,
  keepAliveTimeout: 5_000,
  connectionsCheckingInterval: 1_000,
};

function headersOf(req: IncomingMessage): Record<string, string> {
  const out = lowerCaseHeaders(req.headers);
  if (out.authorization !== undefined) out.authorization = authorizationLines(req.rawHeaders)!;
  return out;
}

const EMPTY = Buffer.alloc(0);
const ignore = () => undefined;

/**
 * Reads at most `cap` bytes, then calls `done` once; past the cap it stops collecting and reports
 * oversize (the connection is then closed). Callbacks, not promises: this is the hot path of POST.
 */
function readBody(req: IncomingMessage, cap: number, done: (body: Buffer, oversize: boolean) => void): void {
  const length = req.headers['content-length'];
  if (length !== undefined && Number(length) > cap) return done(EMPTY, true);
  if (length === undefined && req.headers['transfer-encoding'] === undefined) return done(EMPTY, false);
  const chunks: Buffer[] = [];
  let size = 0;
  let finished = false;
  const finish = (oversize: boolean) => {
    if (finished) return;
    finished = true;
    done(oversize ? EMPTY : chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size), oversize);
  };
  req.on('data', (chunk: Buffer) => {
    if (finished) return;
    size += chunk.length;
    if (size > cap) finish(true);
    else chunks.push(chunk);
  });
  req.on('end', () => finish(false));
  req.on('error', () => finish(false));
}

/** Node's error codes for requests that never reach the app; anything else is malformed HTTP (400). */
const CLIENT_ERRORS: Record<string, { status: 408 | 431; reason: string }> = {
  HPE_HEADER_OVERFLOW: { status: 431, reason: 'Request Header Fields Too Large' },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, reason: 'Request Timeout' },
};
const BAD_REQUEST = { status: 400, reason: 'Bad Request' } as const;

/** Errors node raises before a request reaches us (bad syntax, huge headers, timeouts): still a JSON Error. */
function answerClientError(error: NodeJS.ErrnoException, socket: Socket, rateHeaders: Record<string, string>): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const { status, reason } = CLIENT_ERRORS[error.code ?? ''] ?? BAD_REQUEST;
  const { body } = errorResponse(status, reason.toLowerCase());
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      Object.entries(rateHeaders)
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join('') +
      `Date: ${new Date().toUTCString()}\r\nConnection: close\r\n\r\n${body}`,
  );
}

export async function listen(options: ListenOptions = {}): Promise<RunningServer> {
  const app = createApp(options);
  const handle = options.wrap ? options.wrap(app.handle) : app.handle;
  const cap = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;

  function write(req: IncomingMessage, res: ServerResponse, answer: AppResponse, oversize: boolean): void {
    // Unread body bytes would be parsed as the next request: close instead.
    if (oversize) answer.headers.connection = 'close';
    answer.headers['content-length'] = String(Buffer.byteLength(answer.body));
    res.writeHead(answer.status, answer.headers);
    res.end(req.method === 'HEAD' ? undefined : answer.body);
  }

  function onRequest(req: IncomingMessage, res: ServerResponse): void {
    res.on('error', ignore);
    readBody(req, cap, (body, oversize) => {
      const appReq: AppRequest = {
        method: req.method ?? 'GET',
        path: originForm(req.url ?? '/'),
        headers: headersOf(req),
        body,
      };
      if (oversize) appReq.oversize = true;
      handle(appReq).then(
        (answer) => write(req, res, answer, oversize),
        (error: unknown) => {
          console.error(`petcert reference: handler threw: ${error instanceof Error ? error.stack : String(error)}`);
          write(req, res, errorResponse(500, 'internal error'), oversize);
        },
      );
    });
  }

  const limits = { ...SERVER_LIMITS, ...options.limits };
  const server = createServer(limits, onRequest);
  server.keepAliveTimeout = limits.keepAliveTimeout;
  const now = options.now ?? Date.now;
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) =>
    answerClientError(error, socket, app.anonymousHeaders(now())),
  );

  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      const { port, address } = server.address() as AddressInfo;
      const host = address.includes(':') ? `[${address}]` : address;
      resolve({
        baseUrl: `http://${host}:${port}${BASE_PATH}`,
        port,
        keys: app.keys,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}
