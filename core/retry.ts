// Trying again, written once: the transport's retry on a stale keep-alive connection (http/) and the
// retry of a request that got no response (the quota probes' stack) are this loop.
import { TransportError } from './errors.ts';
import type { Layer } from './layer.ts';

/** Runs `attempt` (1-based) up to `tries` times while its failure is `retryable`; the last failure is thrown. */
export async function retry<T>(
  tries: number,
  attempt: (n: number) => Promise<T>,
  retryable: (error: unknown) => boolean,
): Promise<T> {
  for (let n = 1; ; n += 1) {
    try {
      return await attempt(n);
    } catch (error) {
      if (n >= tries || !retryable(error)) throw error;
    }
  }
}

/**
 * A request that got no HTTP response (TransportError) is sent again, `tries` times in all. The answer says
 * how many sends it took: a try that got no response may still have reached the server and been counted.
 */
export const retryTransport =
  (tries: number): Layer =>
  (next) =>
  (request) =>
    retry(
      tries,
      async (n) => {
        const exchange = await next(request);
        return n > 1 ? { ...exchange, tries: n } : exchange;
      },
      (error) => error instanceof TransportError,
    );
