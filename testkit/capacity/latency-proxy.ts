// A test proxy that adds latency above a configured request rate: the knee petcert capacity must
// find. It forwards every request at once (so the server sees arrivals as sent, and no key is pushed
// over its quota by bunching) and holds the *response* back by `delayMs` whenever the arrival rate over
// the last 2 s exceeds `rate` (2 s, not 1: a generator catching up after a stall on a busy machine must
// not look like a knee). A test kit, not a mode of the product server.
import { Agent, createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { arrivalRate } from './arrival-rate.ts';

export interface LatencyProxy {
  baseUrl: string;
  /** Responses held back so far. */
  delayed(): number;
  close(): Promise<void>;
}

export async function latencyProxy(options: { target: string; rate: number; delayMs: number }): Promise<LatencyProxy> {
  const target = new URL(options.target);
  const agent = new Agent({ keepAlive: true, maxSockets: 512 });
  const rate = arrivalRate(2000);
  let delayed = 0;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const slow = rate.arrive(Date.now()) > options.rate;
    const upstream = request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers, agent }, (up) => {
      const chunks: Buffer[] = [];
      up.on('data', (c: Buffer) => chunks.push(c));
      up.on('end', () => {
        const send = () => {
          res.writeHead(up.statusCode ?? 502, up.headers);
          res.end(Buffer.concat(chunks));
        };
        if (!slow) return send();
        delayed++;
        setTimeout(send, options.delayMs);
      });
    });
    upstream.on('error', () => {
      res.writeHead(502, { 'content-type': 'application/json' });
      res.end('{"code":"proxy","message":"upstream failed","status":502}');
    });
    req.pipe(upstream);
  });
  server.keepAliveTimeout = 10_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}${target.pathname.replace(/\/+$/, '')}`,
    delayed: () => delayed,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        agent.destroy();
        server.close(() => resolve());
      }),
  };
}
