// The quota-aware runner against a small plan with compressed windows (2 s minute): the run paces by
// the headers, waits out 429s (Retry-After as seconds or HTTP-date) and still passes; a 429 without
// Retry-After is the failure of ratelimit.retry-after only; a key that stays limited stops the run.
import { afterAll, describe, expect, test } from 'vitest';
import { listen, type RunningServer } from '../reference/index.ts';
import { exitCodeOf } from '../report/model.ts';
import { runConform } from './run.ts';
import { minBudget } from './runner/budget.ts';

// A little over the smallest budget the coverage phase accepts: the random phase gets a few runs.
const BUDGET = minBudget() + 10;

const KEY = 'petcert-quota-key-0123456789';
const plans = { windows: { minuteSeconds: 2, daySeconds: 3600 }, plans: { small: { perMinute: 60, perDay: 100_000 } } };
const servers: RunningServer[] = [];
afterAll(() => Promise.all(servers.map((s) => s.close())));

/** Spends the current window: returns right after a 429, so the run starts inside a spent window (a fixed count could straddle a window boundary on a loaded machine). */
async function exhaust(baseUrl: string): Promise<void> {
  for (let i = 0; i < 300; i += 1) {
    const res = await fetch(`${baseUrl}/pets?limit=1`, { headers: { authorization: `Bearer ${KEY}` } });
    await res.arrayBuffer();
    if (res.status === 429) return;
  }
}

const failing = (r: Awaited<ReturnType<typeof runConform>>) =>
  r.checks.filter((c) => c.outcome === 'fail').map((c) => c.id);

describe.concurrent('quota-aware runner', () => {
  test.for([
    ['seconds', 'minute'],
    ['http-date', 'day'],
  ] as const)(
    'Retry-After as %s, headers report the %s quota: 429s waited out, the run passes',
    async ([form, headerQuota]) => {
      const s = await listen({
        keys: { [KEY]: 'small' },
        plans,
        variants: { retryAfterForm: form, headerQuota, rejectedConsume: true, tooManyBody: 'text' },
        log: () => undefined,
      });
      servers.push(s);
      await exhaust(s.baseUrl); // start inside a spent window: the first answers are 429s
      const report = await runConform({
        baseUrl: s.baseUrl,
        apiKey: KEY,
        budget: 240,
        maxRuns: 5,
        seed: 3,
        maxWindowSeconds: 3600,
        max429: 60,
        backoffBaseMs: 100,
        plan: 'small',
        plans,
      });
      expect(report.aborted).toBeUndefined();
      expect(failing(report)).toEqual([]);
      // §8.1/§8.2: the Limit of every answer, the 429s' included, is one of the plan's figures (whichever quota the headers report).
      expect(report.checks.find((c) => c.id === 'ratelimit.limit-of-plan')?.outcome).toBe('pass');
      expect(report.checks.find((c) => c.id === 'ratelimit.retry-after')?.outcome).toBe('pass');
      expect(report.requests).toBeLessThanOrEqual(240);
    },
  );

  test('headers reporting the day quota hide the minute one: 429s at each minute boundary, waited out, never stop the run', async () => {
    let refused = 0;
    // 20 a second: more than a loaded machine's run sends, so every window boundary is crossed spent.
    const tight = {
      windows: { minuteSeconds: 1, daySeconds: 3600 },
      plans: { small: { perMinute: 20, perDay: 100_000 } },
    };
    const s = await listen({
      keys: { [KEY]: 'small' },
      plans: tight,
      variants: { headerQuota: 'day' },
      log: () => undefined,
      wrap: (h) => async (req) => {
        const res = await h(req);
        if (res.status === 429) refused += 1;
        return res;
      },
    });
    servers.push(s);
    // max429 counts 429s in a row: more than 4 in all (a few per window) is not a reason to stop.
    const report = await runConform({
      baseUrl: s.baseUrl,
      apiKey: KEY,
      budget: BUDGET,
      maxRuns: 5,
      seed: 3,
      maxWindowSeconds: 3600,
      max429: 4,
      backoffBaseMs: 100,
    });
    expect(report.aborted).toBeUndefined();
    expect(failing(report)).toEqual([]);
    expect(refused).toBeGreaterThan(4);
  });

  test('a 429 without Retry-After fails ratelimit.retry-after, and nothing else', async () => {
    const s = await listen({
      keys: { [KEY]: 'small' },
      plans,
      faults: { retryAfter: 'missing' },
      log: () => undefined,
    });
    servers.push(s);
    await exhaust(s.baseUrl);
    const report = await runConform({
      baseUrl: s.baseUrl,
      apiKey: KEY,
      budget: BUDGET,
      maxRuns: 3,
      seed: 3,
      maxWindowSeconds: 3600,
      max429: 60,
      backoffBaseMs: 100,
    });
    expect(failing(report)).toEqual(['ratelimit.retry-after']);
    expect(exitCodeOf(report)).toBe(1);
  });

  test('a key that keeps answering 429 stops the run: aborted RATE_LIMITED, exit 3', async () => {
    const headers = () => ({
      'retry-after': '0',
      'content-type': 'application/json',
      'x-ratelimit-limit': '60',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + 2),
      date: new Date().toUTCString(),
    });
    const s = await listen({
      keys: { [KEY]: 'small' },
      plans,
      wrap: () => async () => ({ status: 429, headers: headers(), body: '{}' }),
      log: () => undefined,
    });
    servers.push(s);
    const report = await runConform({
      baseUrl: s.baseUrl,
      apiKey: KEY,
      budget: BUDGET,
      seed: 3,
      max429: 4,
      backoffBaseMs: 10,
      maxWindowSeconds: 3600,
    });
    expect(report.aborted?.code).toBe('RATE_LIMITED');
    expect(report.requests).toBe(5);
    expect(exitCodeOf(report)).toBe(3);
  });
});
