// Assertions of the black-box probe, each quoting the rule it holds the server to (spec §7, §8.2,
// reference/README.md). Like blackbox-client.ts, nothing here comes from reference/.
import { expect } from 'vitest';
import type { Res } from './blackbox-client.ts';

export interface RateHeaders {
  limit: number;
  remaining: number;
  reset: number;
  dateSec: number;
}

/** §8.2: the three headers on every response, integers; Reset a Unix time in seconds, after Date. */
export function rateOf(res: Res, maxWindowSeconds: number): RateHeaders {
  const ctx = `${res.status} ${res.text.slice(0, 120)}`;
  for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) {
    expect(res.headers[name], `${name} on ${ctx}`).toMatch(/^\d+$/);
  }
  const date = Date.parse(res.headers.date ?? '');
  expect(Number.isNaN(date), `Date header on ${ctx}`).toBe(false);
  const rate = {
    limit: Number(res.headers['x-ratelimit-limit']),
    remaining: Number(res.headers['x-ratelimit-remaining']),
    reset: Number(res.headers['x-ratelimit-reset']),
    dateSec: date / 1000,
  };
  // Seconds, not milliseconds or a delta: the reset lies after Date, within one window.
  expect(rate.reset - rate.dateSec, `Reset - Date on ${ctx}`).toBeGreaterThan(0);
  expect(rate.reset - rate.dateSec, `Reset - Date on ${ctx}`).toBeLessThanOrEqual(maxWindowSeconds);
  expect(rate.remaining, `Remaining <= Limit on ${ctx}`).toBeLessThanOrEqual(rate.limit);
  return rate;
}

export function expectJson(res: Res): void {
  expect(res.headers['content-type'], `content-type of ${res.status}`).toMatch(/^application\/json\b/);
}

/** §2.5, §7: an Error whose status equals the HTTP status, application/json, rate headers. */
export function expectError(res: Res, status: number, maxWindowSeconds: number): void {
  expect(res.status, res.text).toBe(status);
  expectJson(res);
  const body = res.json as Record<string, unknown>;
  expect(typeof body, res.text).toBe('object');
  expect(typeof body.code, res.text).toBe('string');
  expect(typeof body.message, res.text).toBe('string');
  expect(body.status, res.text).toBe(status);
  rateOf(res, maxWindowSeconds);
}

/** §2.1: a Pet with an int64 id and the fields it was created with. */
export function expectPet(value: unknown, sent?: Record<string, unknown>): { id: number } {
  const pet = value as Record<string, unknown>;
  expect(Number.isInteger(pet.id), JSON.stringify(value)).toBe(true);
  expect(typeof pet.name).toBe('string');
  expect(Number.isInteger(pet.categoryId)).toBe(true);
  if (pet.status !== undefined) expect(['available', 'pending', 'sold']).toContain(pet.status);
  if (sent) {
    expect(pet.name).toBe(sent.name);
    expect(pet.categoryId).toBe(sent.categoryId);
    if (sent.status !== undefined) expect(pet.status).toBe(sent.status);
  }
  return pet as { id: number };
}

/** §7, §8.3: a 429 with an Error and a Retry-After in delta seconds, ≥ 1, not past the Reset. */
export function expectTooMany(res: Res, maxWindowSeconds: number): number {
  expectError(res, 429, maxWindowSeconds);
  const rate = rateOf(res, maxWindowSeconds);
  expect(rate.remaining).toBe(0);
  expect(res.headers['retry-after']).toMatch(/^\d+$/);
  const retryAfter = Number(res.headers['retry-after']);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  // Consistent with Reset (GAPS.md: the reference sends exactly Reset minus the Date header's second).
  expect(retryAfter).toBe(rate.reset - rate.dateSec);
  return retryAfter;
}
