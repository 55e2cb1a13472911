import { describe, expect, it } from 'vitest';
import { AbortRunError } from './errors.ts';
import type { Exchange, HttpRequest, Send } from './exchange.ts';
import { withDeadline } from './deadline.ts';

const req: HttpRequest = { method: 'GET', url: 'http://127.0.0.1:1/v1/pets', headers: {} };
const answer = (request: HttpRequest): Exchange => ({ request, response: { status: 200, headers: {}, body: '[]' }, sentAt: 0, durationMs: 0 });

function fakeClock(start = 1_000): { now: () => number; sleep: () => Promise<void>; advance: (ms: number) => void } {
  let t = start;
  return { now: () => t, sleep: async () => {}, advance: (ms) => void (t += ms) };
}

describe('withDeadline', () => {
  it('passes requests through before the deadline', async () => {
    const clock = fakeClock();
    const d = withDeadline(async (r) => answer(r), 5_000, clock);
    await expect(d.send(req)).resolves.toMatchObject({ response: { status: 200 } });
    expect(d.remainingMs()).toBe(5_000);
    expect(d.expired()).toBe(false);
  });

  it('refuses requests once the deadline passed, with RUN_TIMEOUT', async () => {
    const clock = fakeClock();
    let calls = 0;
    const d = withDeadline(async (r) => ((calls += 1), answer(r)), 5_000, clock);
    clock.advance(5_000);
    const error = await d.send(req).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AbortRunError);
    expect((error as AbortRunError).code).toBe('ABORT_RUN_TIMEOUT');
    expect(calls).toBe(0);
    expect(d.expired()).toBe(true);
  });

  it('gives up on a request still in flight at the deadline', async () => {
    const hang: Send = () => new Promise(() => {});
    const d = withDeadline(hang, 50);
    const started = performance.now();
    await expect(d.send(req)).rejects.toBeInstanceOf(AbortRunError);
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('passes transport errors through unchanged', async () => {
    const boom = new Error('boom');
    const d = withDeadline(() => Promise.reject(boom), 5_000);
    await expect(d.send(req)).rejects.toBe(boom);
  });
});
