import { describe, expect, test } from 'vitest';
import { systemClock } from './clock.ts';
import type { Exchange, Send } from './exchange.ts';
import { stopLayer, stoppableClock, type Stop } from './stop.ts';

const stopOf = (controller: AbortController): Stop => ({
  signal: controller.signal,
  refuse: () => new Error('interrupted'),
});
const ok: Send = async (request) =>
  ({ request, response: { status: 200, headers: {}, body: '' }, sentAt: 0, durationMs: 0 }) as Exchange;
const req = { method: 'GET', url: 'http://127.0.0.1:1/v1/pets', headers: {} };

describe('stop', () => {
  test('sends pass until the signal, then every send is refused', async () => {
    const c = new AbortController();
    const send = stopLayer(stopOf(c))(ok);
    await expect(send(req)).resolves.toMatchObject({ response: { status: 200 } });
    c.abort();
    await expect(send(req)).rejects.toThrow('interrupted');
  });

  test('a long sleep ends at the signal, not at its end; a sleep after it is refused at once', async () => {
    const c = new AbortController();
    const clock = stoppableClock(systemClock, stopOf(c));
    const started = Date.now();
    const sleeping = clock.sleep(60_000);
    setTimeout(() => c.abort(), 20);
    await expect(sleeping).rejects.toThrow('interrupted');
    expect(Date.now() - started).toBeLessThan(1000);
    await expect(clock.sleep(1)).rejects.toThrow('interrupted');
  });

  test('a sleep that ends before the signal resolves', async () => {
    const clock = stoppableClock(systemClock, stopOf(new AbortController()));
    await expect(clock.sleep(5)).resolves.toBeUndefined();
  });
});
