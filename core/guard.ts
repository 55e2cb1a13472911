// Giving up on a dead target after a few consecutive transport failures, instead of spending the whole
// budget (or a quota run's days) on timeouts.
import { TransportError, UnreachableError } from './errors.ts';
import type { Layer } from './layer.ts';

export const DEFAULT_MAX_CONSECUTIVE_TRANSPORT_FAILURES = 3;

/**
 * Rejects with UnreachableError once `maxConsecutive` requests in a row got no HTTP response.
 * Any response (even a 5xx) resets the count: a server that answers is reachable, if faulty.
 */
export function guard(maxConsecutive = DEFAULT_MAX_CONSECUTIVE_TRANSPORT_FAILURES): Layer {
  let consecutive = 0;
  let last = '';
  const requests = () => (consecutive === 1 ? 'a request' : `${consecutive} consecutive requests`);
  const unreachable = () => new UnreachableError(`target unreachable: ${requests()} got no response (last: ${last})`);
  return (next) => async (request) => {
    if (consecutive >= maxConsecutive) throw unreachable();
    try {
      const exchange = await next(request);
      consecutive = 0;
      return exchange;
    } catch (error) {
      if (!(error instanceof TransportError)) throw error;
      consecutive += 1;
      last = error.message;
      throw consecutive >= maxConsecutive ? unreachable() : error;
    }
  };
}
