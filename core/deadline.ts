// A run-level deadline around a Send: per-request timeouts bound one request, this bounds the run, so
// a target that answers slowly but never quite times out still gets its verdict in bounded time.
import { systemClock, type Clock } from './clock.ts';
import { AbortRunError } from './errors.ts';
import type { Send } from './exchange.ts';

export interface DeadlineSend {
  send: Send;
  /** Ms left before the deadline (0 once passed). */
  remainingMs(): number;
  expired(): boolean;
}

function runTimeout(ms: number): AbortRunError {
  return new AbortRunError('RUN_TIMEOUT', `run stopped: the run timeout of ${Math.round(ms / 1000)} s was reached`);
}

/**
 * Rejects with AbortRunError('RUN_TIMEOUT') for requests started after `ms` from now, and for requests
 * still in flight when the deadline passes (their late answer is ignored).
 */
export function withDeadline(send: Send, ms: number, clock: Clock = systemClock): DeadlineSend {
  const end = clock.now() + ms;
  const remainingMs = (): number => Math.max(0, end - clock.now());
  const deadlined: Send = (request) => {
    const left = remainingMs();
    if (left <= 0) return Promise.reject(runTimeout(ms));
    return new Promise((resolve, reject) => {
      // A real timer, not clock.sleep: it must be cancellable so that a finished run can exit at once.
      const timer = setTimeout(() => reject(runTimeout(ms)), left);
      timer.unref?.();
      send(request).then(
        (exchange) => {
          clearTimeout(timer);
          resolve(exchange);
        },
        (error: unknown) => {
          clearTimeout(timer);
          reject(error);
        },
      );
    });
  };
  return { send: deadlined, remainingMs, expired: () => remainingMs() <= 0 };
}
