// A reference server that also tells what it received: per request the key (Bearer token), the
// x-petcert-segment header the key-split script sends, the status it answered and when. It observes
// through listen()'s `wrap` hook, read-only: the answers are the reference server's own.
import { bearerToken } from '../../reference/auth.ts';
import { listen, type ListenOptions, type RunningServer } from '../../reference/index.ts';

export interface Received {
  key: string | undefined;
  segment: string | undefined;
  status: number;
  atMs: number;
}

export interface CountingServer extends RunningServer {
  received: Received[];
  /** key → requests received with it */
  perKey(): Map<string, number>;
}

export async function countingServer(options: ListenOptions): Promise<CountingServer> {
  const received: Received[] = [];
  const server = await listen({
    ...options,
    wrap: (handle) => async (req) => {
      const res = await (options.wrap ? options.wrap(handle) : handle)(req);
      const key = bearerToken(req.headers.authorization);
      received.push({ key, segment: req.headers['x-petcert-segment'], status: res.status, atMs: Date.now() });
      return res;
    },
  });
  const perKey = () => {
    const counts = new Map<string, number>();
    for (const r of received) if (r.key !== undefined) counts.set(r.key, (counts.get(r.key) ?? 0) + 1);
    return counts;
  };
  return Object.assign(server, { received, perKey });
}
