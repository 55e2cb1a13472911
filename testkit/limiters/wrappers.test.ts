import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shiftUnixText, skewHeaders, wrapServer, type Wrapped } from './wrappers.ts';

describe('skew', () => {
  it('moves a decimal Reset by whole seconds, keeping its fraction as sent', () => {
    expect(shiftUnixText('1795501051.808396', -30)).toBe('1795501021.808396');
    expect(shiftUnixText('1795501051', 45)).toBe('1795501096');
  });
  it('moves Date, Reset and an HTTP-date Retry-After; delay-seconds stay', () => {
    const h = skewHeaders(
      { date: 'Tue, 24 Nov 2026 06:00:00 GMT', 'x-ratelimit-reset': '1795500002', 'retry-after': '2' },
      -40,
    );
    expect(h).toEqual({ date: 'Tue, 24 Nov 2026 05:59:20 GMT', 'x-ratelimit-reset': '1795499962', 'retry-after': '2' });
    expect(skewHeaders({ 'retry-after': 'Tue, 24 Nov 2026 06:00:02 GMT' }, 10)['retry-after']).toBe(
      'Tue, 24 Nov 2026 06:00:12 GMT',
    );
  });
});

describe('wrapServer', () => {
  let upstream: ReturnType<typeof createServer>;
  let wrapped: Wrapped;
  let n = 0;
  beforeAll(async () => {
    upstream = createServer((_req, res) => {
      res.writeHead(200, { 'x-ratelimit-reset': '1795500002', 'x-seq': String(++n) });
      res.end('ok');
    });
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
    const { port } = upstream.address() as AddressInfo;
    // Jitter from a fixed sequence: the first answer is held longest, so it arrives last.
    const delays = [0.99, 0, 0, 0];
    wrapped = await wrapServer(`http://127.0.0.1:${port}/v1`, {
      latencyMs: 40,
      jitterMs: 300,
      skewSeconds: -30,
      random: () => delays.shift() ?? 0,
    });
  });
  afterAll(async () => {
    await wrapped.close();
    await new Promise((r) => upstream.close(r));
  });

  it('adds the latency, answers out of order under jitter, and skews the server clock headers', async () => {
    const started = Date.now();
    const order: string[] = [];
    const first = fetch(`${wrapped.baseUrl}/pets`).then((r) => (order.push(r.headers.get('x-seq')!), r));
    await new Promise((r) => setTimeout(r, 20));
    const second = fetch(`${wrapped.baseUrl}/pets`).then((r) => (order.push(r.headers.get('x-seq')!), r));
    const [a] = await Promise.all([first, second]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(40);
    expect(order).toEqual(['2', '1']);
    expect(a.headers.get('x-ratelimit-reset')).toBe('1795499972');
    expect(Math.abs(Date.parse(a.headers.get('date')!) - (Date.now() - 30_000))).toBeLessThan(3000);
  });
});
