// ratelimit.reset-timestamp without a Date header: a server clock hours off is not a fault; a delta
// or milliseconds still are. With a Date header, Reset is judged against it.
import { describe, expect, test } from 'vitest';
import type { Exchange } from '../../core/exchange.ts';
import type { RunContext } from '../context.ts';
import { ratelimitChecks } from './ratelimit.ts';
import type { ResponseCheck } from './types.ts';

const check = ratelimitChecks.find((c) => c.id === 'ratelimit.reset-timestamp') as ResponseCheck;
const ctx = { resetHorizonSeconds: 86_400 } as RunContext;
const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);

function exchange(reset: number, extra: Record<string, string> = {}, status = 200): Exchange {
  const headers = { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '59', 'x-ratelimit-reset': String(reset), ...extra };
  return { request: { method: 'GET', url: 'http://127.0.0.1/v1/pets', headers: {} }, response: { status, headers, body: '[]' }, sentAt: NOW, durationMs: 1 };
}
const verdict = (ex: Exchange) => (check.applies(ex, ctx) ? check.judge(ex, ctx) : 'not applied');

describe('ratelimit.reset-timestamp', () => {
  test('no Date header, server clock 2 h behind or ahead: passes', () => {
    expect(verdict(exchange(NOW / 1000 - 7200 + 30))).toBeUndefined();
    expect(verdict(exchange(NOW / 1000 + 7200 + 30))).toBeUndefined();
  });
  test('no Date header: a delta and milliseconds still fail', () => {
    expect(verdict(exchange(30))).toMatchObject({ message: expect.stringMatching(/before our clock/) });
    expect(verdict(exchange(NOW + 30_000))).toMatchObject({ message: expect.stringMatching(/milliseconds/) });
  });
  test('with a Date header, Reset is judged against it: skew of the whole server passes, a past Reset fails', () => {
    const date = new Date(NOW + 3 * 3600_000).toUTCString();
    expect(verdict(exchange(NOW / 1000 + 3 * 3600 + 30, { date }))).toBeUndefined();
    expect(verdict(exchange(NOW / 1000 + 30, { date }))).toMatchObject({ message: expect.stringMatching(/before the response's Date/) });
  });
  test('the values on a 401 are not judged (GAPS.md: OBSERVE)', () => {
    expect(verdict(exchange(0, {}, 401))).toBe('not applied');
  });
});
