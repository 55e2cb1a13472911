// The conformance runner's stack (virtual time): nothing is sent past the run timeout, and no wait —
// a pacing pause, a slot, a 429's backoff — reaches past it, so the run ends within conformBoundMs.
import { describe, expect, it } from 'vitest';
import { AbortRunError, TransportError } from '../../core/errors.ts';
import type { HttpRequest, Send } from '../../core/exchange.ts';
import { deadTarget } from '../../testkit/load/dead-target.ts';
import { createFakeClock } from '../../testkit/load/fake-clock.ts';
import { CONFORM_TRIES, createRunnerSend, DEFAULT_RUNNER } from './transport.ts';

const T0 = Date.UTC(2030, 0, 1);
const request: HttpRequest = {
  method: 'GET',
  url: 'http://127.0.0.1:1/v1/pets',
  headers: { authorization: 'Bearer good' },
};

function target(
  clock: ReturnType<typeof createFakeClock>,
  o: { status?: number; resetS?: number; retryAfterS?: number },
) {
  let sent = 0;
  const send: Send = async (req) => {
    sent += 1;
    const now = clock.now();
    const headers: Record<string, string> = {
      date: new Date(now).toUTCString(),
      'x-ratelimit-limit': '5',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': String(Math.floor(now / 1000) + (o.resetS ?? 60)),
    };
    if (o.retryAfterS !== undefined) headers['retry-after'] = String(o.retryAfterS);
    return { request: req, response: { status: o.status ?? 200, headers, body: '' }, sentAt: now, durationMs: 0 };
  };
  return { send, sent: () => sent };
}

const runner = (clock: ReturnType<typeof createFakeClock>, base: Send, deadlineMs: number) =>
  createRunnerSend(base, {
    ...DEFAULT_RUNNER,
    clock,
    deadline: T0 + deadlineMs,
    budget: 100,
    steers: () => true,
    observe: () => undefined,
  });

describe('the run timeout bounds every wait of the stack', () => {
  it('a pacing pause that would pass it is not taken: RUN_TIMEOUT at once, nothing sent after', async () => {
    const clock = createFakeClock(T0);
    const t = target(clock, { resetS: 240 });
    const { send } = runner(clock, t.send, 60_000);
    await send(request);
    await expect(send(request)).rejects.toMatchObject({ reason: 'RUN_TIMEOUT' });
    expect(t.sent()).toBe(1);
    expect(clock.now() - T0).toBeLessThanOrEqual(60_000);
  });

  it("a 429's wait that would pass it is not taken either", async () => {
    const clock = createFakeClock(T0);
    const t = target(clock, { status: 429, retryAfterS: 120, resetS: 1 });
    const { send } = runner(clock, t.send, 60_000);
    const error = await send(request).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AbortRunError);
    expect(error).toMatchObject({ reason: 'RUN_TIMEOUT' });
    expect(clock.now() - T0).toBeLessThanOrEqual(60_000);
  });
});

describe('the tries conformBoundMs counts are the tries the stack makes', () => {
  it('a request to a target that never answers costs CONFORM_TRIES timeouts, then the failure is the check’s', async () => {
    const clock = createFakeClock(T0);
    const TIMEOUT_MS = 10_000;
    const dead = deadTarget(clock, TIMEOUT_MS);
    const { send } = runner(clock, dead.send, 3_600_000);
    await expect(send(request)).rejects.toBeInstanceOf(TransportError);
    expect(dead.tries()).toBe(CONFORM_TRIES);
    expect(clock.now() - T0).toBe(CONFORM_TRIES * TIMEOUT_MS);
  });
});

// Certify against a limiter whose Reset is rounded down: the pacing saw the Reset passed and every slot
// sent again at once, about 800 429s a second on one key, each asking Retry-After 3. The hold under the
// slots keeps every request of the key until the 429's Retry-After has elapsed, in any slot.
describe('a 429 holds the key in every slot', () => {
  it('no request of the key goes out before the Retry-After of its last 429, whatever Reset says', async () => {
    const clock = createFakeClock(T0);
    const sentAt: number[] = [];
    let refusedAt: number | undefined;
    let refusing = true;
    const base: Send = async (req) => {
      sentAt.push(clock.now());
      const refuse = refusing;
      refusing = false;
      await clock.sleep(10);
      const now = clock.now();
      if (refuse) refusedAt = now;
      // Reset one second in the past (rounded down past the window's end), Retry-After 3.
      const headers: Record<string, string> = {
        date: new Date(now).toUTCString(),
        'x-ratelimit-limit': '5',
        'x-ratelimit-remaining': refuse ? '0' : '4',
        'x-ratelimit-reset': String(Math.floor(now / 1000) - 1),
      };
      if (refuse) headers['retry-after'] = '3';
      return { request: req, response: { status: refuse ? 429 : 200, headers, body: '' }, sentAt: now, durationMs: 0 };
    };
    const { send } = runner(clock, base, 3_600_000);
    await Promise.all(Array.from({ length: 8 }, () => send(request)));
    expect(sentAt.filter((t) => t >= refusedAt! && t < refusedAt! + 3000)).toEqual([]);
    expect(sentAt.length).toBe(9);
  });
});
