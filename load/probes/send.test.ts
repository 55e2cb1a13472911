// The probes' Send against a target that drops connections: what the guard counts (requests that failed
// every try, not tries), and the tries a dead target costs (bounds.ts counts PROBE_TRIES per request).
import { describe, expect, it } from 'vitest';
import { counter } from '../../core/count.ts';
import { deadline } from '../../core/deadline.ts';
import { TransportError, UnreachableError } from '../../core/errors.ts';
import type { Exchange, HttpRequest, Send } from '../../core/exchange.ts';
import { createFakeClock } from '../../testkit/load/fake-clock.ts';
import { PROBE_TRIES, probeSend } from './send.ts';

const request: HttpRequest = { method: 'GET', url: 'http://127.0.0.1:1/v1/pets', headers: {} };
const answer = (req: HttpRequest): Exchange => ({
  request: req,
  response: { status: 200, headers: {}, body: '[]' },
  sentAt: 0,
  durationMs: 1,
});

/** Fails the first `failures` tries of every request (a reset keep-alive connection), then answers. */
function dropping(failures: number): { send: Send; tries(): number } {
  const seen = new Map<HttpRequest, number>();
  let tries = 0;
  const send: Send = async (req) => {
    tries += 1;
    const n = (seen.get(req) ?? 0) + 1;
    seen.set(req, n);
    await Promise.resolve();
    if (n <= failures)
      throw new TransportError('CONNECTION_RESET', 'connection closed before the response was complete');
    return answer(req);
  };
  return { send, tries: () => tries };
}

function probes(target: Send) {
  const count = counter();
  const clock = createFakeClock(0);
  const send = probeSend(target, {
    clock,
    deadline: deadline(clock, undefined, () => new Error('past')),
    count,
    maxWaitMs: 60_000,
  });
  return { send, count };
}

describe('the probes’ Send', () => {
  it('answers concurrent requests that each lost a try or two: not an unreachable target', async () => {
    const target = dropping(PROBE_TRIES - 1);
    const { send, count } = probes(target.send);
    // Two keys' probes in flight together: 2 × (PROBE_TRIES - 1) failed tries in a row before any answer.
    const requests = Array.from({ length: 4 }, () => ({ ...request }));
    const statuses = await Promise.all(requests.map((r) => send(r).then((e) => e.response.status)));
    expect(statuses).toEqual([200, 200, 200, 200]);
    expect(count.count()).toBe(4 * PROBE_TRIES);
  });

  it('calls the target unreachable once a request got no response on any of its tries, and sends nothing more', async () => {
    const target = dropping(Number.POSITIVE_INFINITY);
    const { send } = probes(target.send);
    await expect(send({ ...request })).rejects.toThrow(
      /target unreachable: a request got no response \(last: .*connection closed/,
    );
    expect(target.tries()).toBe(PROBE_TRIES);
    await expect(send({ ...request })).rejects.toBeInstanceOf(UnreachableError);
    expect(target.tries()).toBe(PROBE_TRIES);
  });
});
