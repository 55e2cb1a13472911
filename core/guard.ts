// Wrappers around a Send that every runner uses: counting requests, and giving up on a dead target
// after a few consecutive transport failures instead of spending the whole budget on timeouts.
import { TransportError, UnreachableError } from './errors.ts';
import type { Send } from './exchange.ts';

export interface CountedSend {
  send: Send;
  /** Requests handed to the transport so far (answered or not). */
  count(): number;
}

export function countRequests(send: Send): CountedSend {
  let n = 0;
  return {
    send: (request) => {
      n += 1;
      return send(request);
    },
    count: () => n,
  };
}

export const DEFAULT_MAX_CONSECUTIVE_TRANSPORT_FAILURES = 3;

/**
 * Rejects with UnreachableError once `maxConsecutive` requests in a row got no HTTP response.
 * Any response (even a 5xx) resets the count: a server that answers is reachable, if faulty.
 */
export function guardTransport(send: Send, maxConsecutive = DEFAULT_MAX_CONSECUTIVE_TRANSPORT_FAILURES): Send {
  let consecutive = 0;
  let last = '';
  return async (request) => {
    if (consecutive >= maxConsecutive) {
      throw new UnreachableError(`target unreachable: ${consecutive} consecutive requests got no response (last: ${last})`);
    }
    try {
      const exchange = await send(request);
      consecutive = 0;
      return exchange;
    } catch (error) {
      if (!(error instanceof TransportError)) throw error;
      consecutive += 1;
      last = error.message;
      if (consecutive >= maxConsecutive) {
        throw new UnreachableError(`target unreachable: ${consecutive} consecutive requests got no response (last: ${last})`);
      }
      throw error;
    }
  };
}
