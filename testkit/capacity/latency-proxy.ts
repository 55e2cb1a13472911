// A test proxy that adds latency above a configured request rate: the knee petcert capacity must
// find. It forwards every request at once (so the server sees arrivals as sent, and no key is pushed
// over its quota by bunching) and holds the *response* back by `delayMs` whenever the arrival rate over
// the last 2 s exceeds `rate` (2 s, not 1: a generator catching up after a stall on a busy machine must
// not look like a knee). A test kit, not a mode of the product server.
import { Agent } from 'node:http';
import { BAD_GATEWAY, forward, listenLoopback, type Answer } from '../http/loopback-proxy.ts';
import { arrivalRate } from './arrival-rate.ts';

export interface LatencyProxy {
  baseUrl: string;
  /** Responses held back so far. */
  delayed(): number;
  close(): Promise<void>;
}

export async function latencyProxy(options: { target: string; rate: number; delayMs: number }): Promise<LatencyProxy> {
  const up = { target: new URL(options.target), agent: new Agent({ keepAlive: true, maxSockets: 512 }) };
  const rate = arrivalRate(2000);
  let delayed = 0;
  const proxy = await listenLoopback(up, (req, res) => {
    const slow = rate.arrive(Date.now()) > options.rate;
    const send = (a: Answer) => res.writeHead(a.status, a.headers).end(a.body);
    const answer = (a: Answer) => {
      if (!slow) return send(a);
      delayed++;
      setTimeout(() => send(a), options.delayMs);
    };
    forward(up, req, req.headers, null, answer, () => send({ ...BAD_GATEWAY, body: Buffer.from(BAD_GATEWAY.body) }));
  });
  return { ...proxy, delayed: () => delayed };
}
