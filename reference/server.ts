// The node:http adapter: reads the request (body capped), calls the app, writes the answer. Limits
// keep slow or hostile clients from holding the server: header size, header and request timeouts.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createApp, DEFAULT_MAX_BODY_BYTES, type ReferenceOptions } from './app.ts';
import { ERROR_CODES } from './responses.ts';
import { BASE_PATH } from './routes.ts';
import type { AppRequest, Handle } from './types.ts';

export interface ListenOptions extends ReferenceOptions {
  host?: string;
  port?: number;
  /** Wraps the handler: tests build response-level faults (wrong status, dropped headers) with it. */
  wrap?: (handle: Handle) => Handle;
}

export interface RunningServer {
  /** http://127.0.0.1:PORT/v1 */
  baseUrl: string;
  port: number;
  keys: Record<string, string>;
  close(): Promise<void>;
}

export const SERVER_LIMITS = {
  maxHeaderSize: 16 * 1024,
  headersTimeout: 10_000,
  requestTimeout: 30_000,
  keepAliveTimeout: 5_000,
} as const;

function headersOf(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  const raw = req.headers;
  for (const name in raw) {
    const v = raw[name];
    if (v !== undefined) out[name] = Array.isArray(v) ? v.join(', ') : v;
  }
  return out;
}

/** Reads at most `cap` bytes; past that, stops reading and reports oversize (the connection is then closed). */
function readBody(req: IncomingMessage, cap: number): Promise<{ body: Buffer; oversize: boolean }> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > cap) return Promise.resolve({ body: Buffer.alloc(0), oversize: true });
  if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined) {
    return Promise.resolve({ body: Buffer.alloc(0), oversize: false });
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (oversize: boolean) => {
      req.removeAllListeners('data');
      resolve({ body: oversize ? Buffer.alloc(0) : Buffer.concat(chunks, size), oversize });
    };
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > cap) done(true);
      else chunks.push(chunk);
    });
    req.on('end', () => done(false));
    req.on('error', () => done(false));
  });
}

/** Errors node raises before a request reaches us (bad syntax, huge headers, timeouts): still a JSON Error. */
function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const reason = status === 431 ? 'Request Header Fields Too Large' : status === 408 ? 'Request Timeout' : 'Bad Request';
  const code = status === 400 ? ERROR_CODES[400] : status === 431 ? 'HEADERS_TOO_LARGE' : 'REQUEST_TIMEOUT';
  const body = JSON.stringify({ code, message: reason.toLowerCase(), status });
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `Date: ${new Date().toUTCString()}\r\nConnection: close\r\n\r\n${body}`,
  );
}

export function listen(options: ListenOptions = {}): Promise<RunningServer> {
  const app = createApp(options);
  const handle = options.wrap ? options.wrap(app.handle) : app.handle;
  const cap = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;

  async function onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    res.on('error', () => undefined);
    const { body, oversize } = await readBody(req, cap);
    const appReq: AppRequest = { method: req.method ?? 'GET', path: req.url ?? '/', headers: headersOf(req), body };
    if (oversize) appReq.oversize = true;
    let answer;
    try {
      answer = await handle(appReq);
    } catch (error) {
      console.error(`petcert reference: handler threw: ${error instanceof Error ? error.stack : String(error)}`);
      answer = { status: 500, headers: { 'content-type': 'application/json' }, body: '{"code":"INTERNAL_ERROR","message":"internal error","status":500}' };
    }
    // Unread body bytes would be parsed as the next request: close instead.
    if (oversize) answer.headers.connection = 'close';
    answer.headers['content-length'] = String(Buffer.byteLength(answer.body));
    res.writeHead(answer.status, answer.headers);
    res.end(req.method === 'HEAD' ? undefined : answer.body);
  }

  const server = createServer({ ...SERVER_LIMITS }, (req, res) => void onRequest(req, res));
  server.requestTimeout = SERVER_LIMITS.requestTimeout;
  server.headersTimeout = SERVER_LIMITS.headersTimeout;
  server.keepAliveTimeout = SERVER_LIMITS.keepAliveTimeout;
  server.on('clientError', answerClientError);

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
