// Two token buckets, one middleware per quota: a 200 carries the day's headers (the last middleware), the
// minute's 429 its own with Retry-After when one request fits again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parsePlansFile } from '../../spec/plans.ts';
import { tokenBucketTwiceService } from './buckets-twice.ts';
import type { RunningService } from './store-app.ts';

const plans = parsePlansFile({
  windows: { minuteSeconds: 2, daySeconds: 20 },
  plans: { free: { perMinute: 3, perDay: 10 } },
});
let service: RunningService;

beforeAll(async () => {
  service = await tokenBucketTwiceService({ plans, keys: { pc_free_twice: 'free' } });
});
afterAll(() => service.close());

const get = () => fetch(`${service.baseUrl}/pets?limit=1`, { headers: { authorization: 'Bearer pc_free_twice' } });

describe('token-bucket-twice', () => {
  it('200s report the day; the minute 429 reports the minute, Retry-After one token; a token later a 200 again', async () => {
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await get());
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 429]);
    expect(
      answers.slice(0, 3).map((r) => [r.headers.get('x-ratelimit-limit'), r.headers.get('x-ratelimit-remaining')]),
    ).toEqual([
      ['10', '9'],
      ['10', '8'],
      ['10', '7'],
    ]);
    const refused = answers[3]!;
    expect([
      refused.headers.get('x-ratelimit-limit'),
      refused.headers.get('x-ratelimit-remaining'),
      refused.headers.get('retry-after'),
    ]).toEqual(['3', '0', '1']);
    // One token of 3 per 2 s is back within 0.7 s.
    await new Promise((r) => setTimeout(r, 800));
    const again = await get();
    expect([again.status, again.headers.get('x-ratelimit-limit')]).toEqual([200, '10']);
  });
});
