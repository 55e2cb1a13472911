// The black-box probe's assertions fail faulty answers (and pass a correct one): a probe that cannot
// fail proves nothing.
import { describe, expect, test } from 'vitest';
import type { Res } from './blackbox-client.ts';
import { expectError, expectTooMany, rateOf } from './blackbox-expect.ts';

const DATE = 'Sun, 22 Nov 2026 19:22:38 GMT';
const DATE_SEC = Date.parse(DATE) / 1000;

function tooMany(
  over: Record<string, string | undefined> = {},
  body: unknown = { code: 'RATE_LIMITED', message: 'm', status: 429 },
): Res {
  const headers: Record<string, string> = {};
  const all = {
    'content-type': 'application/json',
    date: DATE,
    'x-ratelimit-limit': '5',
    'x-ratelimit-remaining': '0',
    'x-ratelimit-reset': String(DATE_SEC + 2),
    'retry-after': '2',
    ...over,
  };
  for (const [k, v] of Object.entries(all)) if (v !== undefined) headers[k] = v;
  return { status: 429, headers, text: JSON.stringify(body), json: body, receivedAt: 0 };
}

describe('blackbox assertions', () => {
  test('a correct 429 passes', () => {
    expect(expectTooMany(tooMany(), 40)).toBe(2);
  });
  test.for<[string, Record<string, string | undefined>]>([
    ['Reset in ms', { 'x-ratelimit-reset': String((DATE_SEC + 2) * 1000) }],
    ['Reset as a delta', { 'x-ratelimit-reset': '2' }],
    ['Reset in the past', { 'x-ratelimit-reset': String(DATE_SEC - 1) }],
    ['Remaining missing', { 'x-ratelimit-remaining': undefined }],
    ['Remaining negative', { 'x-ratelimit-remaining': '-1' }],
    ['Remaining above Limit', { 'x-ratelimit-remaining': '6' }],
    ['no Date', { date: undefined }],
    ['Retry-After missing', { 'retry-after': undefined }],
    ['Retry-After zero', { 'retry-after': '0' }],
    ['Retry-After past the reset', { 'retry-after': '86402' }],
    ['text/plain', { 'content-type': 'text/plain' }],
  ])('fails: %s', ([, over]) => {
    expect(() => expectTooMany(tooMany(over), 40)).toThrow();
  });
  test('an Error whose status differs from the HTTP status fails', () => {
    expect(() => expectError(tooMany({}, { code: 'X', message: 'm', status: 400 }), 429, 40)).toThrow();
    expect(() => expectError(tooMany({}, { message: 'm', status: 429 }), 429, 40)).toThrow();
  });
  test('a Reset further away than the longest window fails', () => {
    expect(() => rateOf(tooMany({ 'x-ratelimit-reset': String(DATE_SEC + 41) }), 40)).toThrow();
  });
});
