// What every test proxy in front of a server shares: listening on loopback, forwarding one request
// upstream and reading its whole answer (so a proxy can hold it back or rewrite it), the 502 with an
// Error body a proxy answers a failed upstream with (BAD_GATEWAY), and a close that leaves no socket open.
import {
  Agent,
  createServer,
  request,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type RequestListener,
} from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LoopbackProxy {
  /** The proxy's base URL, with the target's path (…/v1). */
  baseUrl: string;
  close(): Promise<void>;
}

export interface Upstream {
  target: URL;
  agent: Agent;
}

export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** Sends `req` (its body given whole, or streamed from `req`) upstream; `onAnswer` gets the whole answer. */
export function forward(
  up: Upstream,
  req: IncomingMessage,
  headers: IncomingHttpHeaders,
  body: Buffer | null,
  onAnswer: (a: Answer) => void,
  onError: () => void,
): void {
  const { target, agent } = up;
  const upstream = request(
    { host: target.hostname, port: target.port, method: req.method, path: req.url, headers, agent },
    (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        onAnswer({ status: res.statusCode ?? 502, headers: res.headers, body: Buffer.concat(chunks) }),
      );
    },
  );
  upstream.on('error', onError);
  if (body === null) req.pipe(upstream);
  else upstream.end(body);
}

/** The Error body (§6) a proxy answers when its upstream failed. */
export const BAD_GATEWAY = {
  status: 502,
  headers: { 'content-type': 'application/json' },
  body: '{"code":"BAD_GATEWAY","message":"upstream failed","status":502}',
};

export async function listenLoopback(up: Upstream, handle: RequestListener): Promise<LoopbackProxy> {
  const server = createServer(handle);
  server.keepAliveTimeout = 10_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}${up.target.pathname.replace(/\/+$/, '')}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        up.agent.destroy();
        server.close(() => resolve());
      }),
  };
}
