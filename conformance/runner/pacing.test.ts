// The pacing layer alone (virtual time): it waits for the window the server's own headers report as
// spent, only when an answer to the key said so, and never longer than its cap.
import { describe, expect, it } from 'vitest';
import type { HttpRequest, Send } from '../../core/exchange.ts';
import { createFakeClock } from '../../testkit/load/fake-clock.ts';
import { latest, pacing } from './pacing.ts';

const T0 = Date.UTC(2030, 0, 1);
const request = (key: string): HttpRequest => ({
  method: 'GET',
  url: 'http://127.0.0.1:1/v1/pets',
  headers: { authorization: `Bearer ${key}` },
});

/** Answers with Remaining 0 and a Reset `resetS` seconds after the server's Date. */
function spentWindow(clock: ReturnType<typeof createFakeClock>, resetS: number): Send {
  return async (req) => {
    const now = clock.now();
    const headers = {
      date: new Date(now).toUTCString(),
      'x-ratelimit-limit': '5',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': String(Math.floor(now / 1000) + resetS),
    };
    return { request: req, response: { status: 200, headers, body: '' }, sentAt: now, durationMs: 0 };
  };
}

const steers = (req: HttpRequest) => req.headers.authorization === 'Bearer good';

/** Two sends with `key` through the pacing layer over a spent window that resets in `resetS`: ms they took. */
async function twoSends(
  key: string,
  resetS: number,
  o: { maxPauseMs?: number; sleep?: (ms: number) => Promise<void> } = {},
) {
  const clock = createFakeClock(T0);
  const send = pacing({ clock, steers, ...o, maxPauseMs: o.maxPauseMs ?? 60_000 })(spentWindow(clock, resetS));
  await send(request(key));
  expect(clock.now()).toBe(T0);
  await send(request(key));
  return clock.now() - T0;
}

describe('pacing', () => {
  it('after an answer to the key that says nothing remains, waits for its Reset before the next send', async () => {
    const ms = await twoSends('good', 2);
    expect(ms).toBeGreaterThanOrEqual(2000);
    expect(ms).toBeLessThan(2100);
  });

  it('an answer to another key steers nothing', async () => {
    expect(await twoSends('bad', 2)).toBe(0);
  });

  it('a pause longer than its cap is not taken (the 429 path takes over)', async () => {
    expect(await twoSends('good', 30, { maxPauseMs: 1000 })).toBe(0);
  });

  it('pauses through `sleep`, so the run deadline can refuse the pause', async () => {
    await expect(
      twoSends('good', 2, { sleep: () => Promise.reject(new Error('past the run timeout')) }),
    ).rejects.toThrow('past the run timeout');
  });
});

describe('what the pacer knows of the window', () => {
  const state = (remaining: number, reset: number) => ({ limit: 5, remaining, reset });
  it('answers of one window coming back out of order: the least Remaining stands', () => {
    expect(latest(state(1, 100), state(3, 100))).toEqual(state(1, 100));
    expect(latest(state(3, 100), state(1, 100))).toEqual(state(1, 100));
  });
  it("a later window replaces it; an earlier window's answer arriving late tells nothing", () => {
    expect(latest(state(0, 100), state(4, 101))).toEqual(state(4, 101));
    expect(latest(state(4, 101), state(0, 100))).toEqual(state(4, 101));
  });

  it('a send waits for the Reset when an earlier-counted answer with more Remaining comes back last', async () => {
    const clock = createFakeClock(T0);
    const nowS = Math.floor(T0 / 1000);
    // Two in flight at once: the one the server counted last (0 left) comes back first, the other (1 left) after it.
    const remaining = ['0', '1'];
    const send = pacing({ clock, steers, maxPauseMs: 60_000 })(async (req) => {
      const headers = {
        date: new Date(clock.now()).toUTCString(),
        'x-ratelimit-limit': '5',
        'x-ratelimit-remaining': remaining.shift() ?? '0',
        'x-ratelimit-reset': String(nowS + 2),
      };
      return { request: req, response: { status: 200, headers, body: '' }, sentAt: clock.now(), durationMs: 0 };
    });
    await Promise.all([send(request('good')), send(request('good'))]);
    expect(clock.now()).toBe(T0);
    await send(request('good'));
    expect(clock.now() - T0).toBeGreaterThanOrEqual(2000);
  });
});
