// A target that never answers, in virtual time: every try costs the whole timeout, then fails as the
// transport would (TransportError TIMEOUT). Tests hold a stack's tries and a printed bound to it.
import { TransportError } from '../../core/errors.ts';
import type { Send } from '../../core/exchange.ts';
import type { FakeClock } from './fake-clock.ts';

export function deadTarget(clock: FakeClock, timeoutMs: number): { send: Send; tries(): number } {
  let tries = 0;
  const send: Send = async (request) => {
    await clock.sleep(timeoutMs);
    tries += 1;
    throw new TransportError(
      'TIMEOUT',
      `${request.method} ${request.url}: no complete response within ${timeoutMs} ms`,
    );
  };
  return { send, tries: () => tries };
}
