// The draft RateLimit fields read in both syntaxes of the drafts, and compared with X-RateLimit-* of the
// same response: agreement is silent, a contradiction is named, absent fields are not judged.
import { describe, expect, test } from 'vitest';
import type { Exchange } from '../../core/exchange.ts';
import { contradiction, draftAgrees, readCurrent, readPolicies } from './ratelimit-draft.ts';

const DATE = 'Sun, 22 Nov 2026 12:00:00 GMT';
const NOW_S = Date.parse(DATE) / 1000;
const X = { limit: 60, remaining: 42, reset: NOW_S + 30 };

function exchange(extra: Record<string, string>): Exchange {
  const headers = {
    date: DATE,
    'x-ratelimit-limit': String(X.limit),
    'x-ratelimit-remaining': String(X.remaining),
    'x-ratelimit-reset': String(X.reset),
    ...extra,
  };
  return {
    request: { method: 'GET', url: 'http://127.0.0.1/v1/pets', headers: {} },
    response: { status: 200, headers, body: '[]' },
    sentAt: 0,
    durationMs: 1,
  };
}

describe('reading the draft fields', () => {
  test('draft 08+: items with parameters; several policies', () => {
    expect(readCurrent('"default";r=42;t=30')).toEqual([{ policy: 'default', remaining: 42, reset: 30 }]);
    expect(readPolicies('"minute";q=60;w=60, "day";q=1000;w=86400')).toEqual([60, 1000]);
    expect(readPolicies('default;l=100;w=10')).toEqual([100]);
  });
  test('draft 07: a dictionary, and bare integers with a window', () => {
    expect(readCurrent('limit=60, remaining=42, reset=30')).toEqual([{ limit: 60, remaining: 42, reset: 30 }]);
    expect(readPolicies('60;w=60, 1000;w=86400')).toEqual([60, 1000]);
  });
});

describe('agreement with X-RateLimit-*', () => {
  test.for([
    ['both syntaxes agreeing', { ratelimit: '"default";r=42;t=30', 'ratelimit-policy': '"default";q=60;w=60' }],
    ['reset one second off (Date has whole seconds)', { ratelimit: '"default";r=42;t=31' }],
    [
      'one of several items agrees (minute and day policies)',
      { ratelimit: '"day";r=900;t=5000, "minute";r=42;t=30', 'ratelimit-policy': '"minute";q=60, "day";q=1000' },
    ],
    ['draft 07 agreeing', { ratelimit: 'limit=60, remaining=42, reset=30' }],
    // §8.1 has two quotas and X-RateLimit-* may report either (GAPS.md): an item about the other one is no contradiction.
    [
      'draft 08+: RateLimit names only the day policy, X-RateLimit-* report the minute',
      { ratelimit: '"day";r=900;t=5000', 'ratelimit-policy': '"minute";q=60;w=60, "day";q=1000;w=86400' },
    ],
    [
      'draft 07: RateLimit reports the day quota, a policy of the same response',
      { ratelimit: 'limit=1000, remaining=900, reset=5000', 'ratelimit-policy': '60;w=60, 1000;w=86400' },
    ],
  ] as const)('%s: no contradiction', ([, fields]) => {
    expect(contradiction(exchange(fields), X)).toBeUndefined();
    expect(draftAgrees.judge(exchange(fields), {} as never)).toBeUndefined();
  });

  test("draft 07 without RateLimit-Policy: a limit that is the key's other plan figure is no contradiction, any other limit is", () => {
    const day = exchange({ ratelimit: 'limit=1000, remaining=900, reset=5000' });
    expect(contradiction(day, X, { perMinute: 60, perDay: 1000 })).toBeUndefined();
    expect(draftAgrees.judge(day, { plan: { name: 'free', perMinute: 60, perDay: 1000 } } as never)).toBeUndefined();
    expect(
      contradiction(exchange({ ratelimit: 'limit=100, remaining=42, reset=30' }), X, { perMinute: 60, perDay: 1000 }),
    ).toMatch(/agrees with no part/);
  });

  test.for([
    [
      'remaining differs',
      { ratelimit: '"default";r=47;t=30' },
      /RateLimit .* agrees with no part of X-RateLimit-Limit 60, -Remaining 42/,
    ],
    ['reset far off', { ratelimit: '"default";r=42;t=3600' }, /agrees with no part/],
    [
      'the policy names another quota',
      { 'ratelimit-policy': '"default";q=100;w=60' },
      /RateLimit-Policy .* names no quota of 60/,
    ],
    ['draft 07 limit differs', { ratelimit: 'limit=100, remaining=42, reset=30' }, /agrees with no part/],
    [
      'the item of the same policy differs, beside an item of the other',
      { ratelimit: '"minute";r=47;t=30, "day";r=900;t=5000', 'ratelimit-policy': '"minute";q=60, "day";q=1000' },
      /agrees with no part/,
    ],
  ] as const)('%s: a SHOULD finding naming it', ([, fields, message]) => {
    expect(draftAgrees.applies(exchange(fields), {} as never)).toBe(true);
    expect(draftAgrees.judge(exchange(fields), {} as never)?.message).toMatch(message);
  });

  test('without the draft fields the SHOULD check does not apply; nor on a 401, whose values are OBSERVE (GAPS.md)', () => {
    expect(draftAgrees.applies(exchange({}), {} as never)).toBe(false);
    const on401 = exchange({ ratelimit: '"default";r=47;t=30' });
    expect(draftAgrees.applies({ ...on401, response: { ...on401.response, status: 401 } }, {} as never)).toBe(false);
  });
});
