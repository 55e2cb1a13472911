// Black-box probe of the rate limits of `petcert serve` (spec §8): plans file with
// 2 s / 40 s windows and custom plans, the server's own Date and Reset headers as the clock. The
// tests run concurrently on separate keys, so the day probe's wait for its reset overlaps the rest.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { agent, call, sleep, startServe, type Res, type Served } from '../testkit/reference/blackbox-client.ts';
import { expectError, expectTooMany, rateOf } from '../testkit/reference/blackbox-expect.ts';

const PLANS = {
  windows: { minuteSeconds: 2, daySeconds: 40 },
  plans: {
    free: { perMinute: 5, perDay: 100 },
    pro: { perMinute: 60, perDay: 100_000 },
    enterprise: { perMinute: 3, perDay: 5 },
    gold: { perMinute: 100_000, perDay: 1_000_000 },
    silver: { perMinute: 3, perDay: 6 },
  },
};
const MINUTE = PLANS.windows.minuteSeconds;
const DAY = PLANS.windows.daySeconds;
let srv: Served;

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'petcert-blackbox-'));
  const plansFile = join(dir, 'plans.json');
  writeFileSync(plansFile, JSON.stringify(PLANS));
  srv = await startServe(
    [
      '--host',
      '127.0.0.1',
      '--port',
      '0',
      '--key',
      'k1=free',
      '--key',
      'k2=pro',
      '--key',
      'k3=enterprise',
      '--key',
      'kg=gold',
      '--key',
      'k4=free',
      '--key',
      'k5=free',
      '--key',
      'k6=silver',
      '--plans',
      plansFile,
    ],
    7,
  );
});
afterAll(async () => {
  expect(await srv?.stop()).toBe(0);
  await agent.close();
});

const get = (key: string, path = '/pets?limit=1') => call(srv.origin, 'GET', `/v1${path}`, { key });

/** The minute-window end as the server states it on an (uncounted) 401. */
async function windowEnd(): Promise<number> {
  return rateOf(await call(srv.origin, 'GET', '/v1/pets'), DAY).reset;
}

/** Polls the server until a new minute window starts that satisfies `ok(start)`; returns its end. */
async function freshWindow(ok: (start: number) => boolean = () => true): Promise<number> {
  const first = await windowEnd();
  for (let deadline = Date.now() + (DAY + 5) * 1000; Date.now() < deadline; await sleep(20)) {
    const end = await windowEnd();
    if (end !== first && ok(end - MINUTE)) return end;
  }
  throw new Error('no fresh window');
}

/**
 * Runs `scenario` from the start of a fresh minute window. If the server's window ended before the
 * scenario did (a loaded machine: an answer reports a later Reset), that is no finding: run it again
 * in a later window, at most three times; the last attempt is judged whatever it shows.
 */
async function inOneWindow(scenario: () => Promise<Res[]>): Promise<{ end: number; answers: Res[] }> {
  for (let attempt = 1; ; attempt++) {
    const end = await freshWindow();
    const answers = await scenario();
    if (attempt === 3 || answers.every((r) => Number(r.headers['x-ratelimit-reset']) <= end)) return { end, answers };
  }
}

describe.concurrent('§8 rate limits', () => {
  // Alone, first: the burst would delay the other tests' requests past their window.
  test.sequential('500 simultaneous requests on a fresh window of a 60-per-minute plan admit exactly 60', async () => {
    await freshWindow();
    const answers: Res[] = await Promise.all(Array.from({ length: 500 }, () => get('k2')));
    const byWindow = new Map<number, Res[]>();
    for (const res of answers) {
      const reset = rateOf(res, DAY).reset;
      byWindow.set(reset, [...(byWindow.get(reset) ?? []), res]);
    }
    // Each window the burst touched was fresh, so each admits min(60, requests in it).
    for (const [reset, inWindow] of byWindow) {
      const admitted = inWindow.filter((r) => r.status === 200).length;
      expect(admitted, `window ending ${reset}`).toBe(Math.min(60, inWindow.length));
      // Remaining counts down exactly under concurrency: each admission reports a distinct value.
      const remaining = inWindow
        .filter((r) => r.status === 200)
        .map((r) => rateOf(r, DAY).remaining)
        .sort((x, y) => x - y);
      expect(remaining).toEqual(Array.from({ length: admitted }, (_, i) => 60 - admitted + i));
      for (const r of inWindow) if (r.status !== 200) expectTooMany(r, DAY);
    }
    expect(answers.filter((r) => r.status === 200).length).toBeLessThanOrEqual(60 * byWindow.size);
  });

  test('minute quota: Remaining counts down, epoch-aligned Reset, 429 + Retry-After, recovery', async () => {
    const { end, answers } = await inOneWindow(async () => {
      const out: Res[] = [];
      for (let i = 0; i < 5; i++) out.push(await get('k1'));
      out.push(await get('k1'), await get('k1', '/pets/abc'), await get('k1', '/nope'), await get('k5'));
      return out;
    });
    answers.slice(0, 5).forEach((res, i) => {
      expect(res.status, res.text).toBe(200);
      expect(rateOf(res, DAY)).toMatchObject({ limit: 5, remaining: 4 - i, reset: end });
    });
    let wait = 0;
    for (const res of answers.slice(5, 8)) {
      wait = expectTooMany(res, DAY);
      expect(rateOf(res, DAY)).toMatchObject({ limit: 5, reset: end });
    }
    expect(end % MINUTE).toBe(0);
    // Per key: another key on the same plan still has its whole figure in this window.
    expect(rateOf(answers[8]!, DAY)).toMatchObject({ limit: 5, remaining: 4, reset: end });
    await sleep(wait * 1000 + 50);
    const again = await get('k1');
    expect(again.status, again.text).toBe(200);
    // 429s do not consume quota (GAPS.md): the new window starts with its full figure.
    expect(rateOf(again, DAY)).toMatchObject({ limit: 5, remaining: 4, reset: end + MINUTE });
  });

  test('admitted 400, 404 and 405 answers count against the quota (GAPS.md)', async () => {
    const { end, answers } = await inOneWindow(async () => [
      await get('k4', '/pets/abc'),
      await get('k4', '/pets/999'),
      await get('k4', '/x'),
      await call(srv.origin, 'DELETE', '/v1/pets', { key: 'k4' }),
    ]);
    expect(answers.map((r) => r.status)).toEqual([400, 404, 404, 405]);
    expect(answers.map((r) => rateOf(r, DAY))).toMatchObject(
      [4, 3, 2, 1].map((remaining) => ({ remaining, reset: end })),
    );
  });

  test(
    'day quota, closest-to-exhaustion headers, the binding quota on 429, day recovery',
    { timeout: 58_000 },
    async () => {
      // Windows A, B, C must fall in one day window: start with at least 4 minute windows left in it.
      const a = await freshWindow((start) => Math.ceil((start + 1) / DAY) * DAY - start >= 4 * MINUTE);
      const dayEnd = Math.ceil(a / DAY) * DAY;
      for (const remaining of [2, 1, 0]) {
        // minute 2,1,0 left vs day 4,3,2: the minute is closer
        expect(rateOf(await get('k3'), DAY)).toMatchObject({ limit: 3, remaining, reset: a });
      }
      expectTooMany(await get('k3'), DAY);
      await freshWindow();
      for (const remaining of [1, 0]) {
        // minute 2,1 left vs day 1,0: the day is closer
        const res = await get('k3');
        expect(res.status).toBe(200);
        expect(rateOf(res, DAY)).toMatchObject({ limit: 5, remaining, reset: dayEnd });
      }
      const spent = await get('k3');
      expect(expectTooMany(spent, DAY)).toBeGreaterThan(MINUTE - 1);
      expect(rateOf(spent, DAY)).toMatchObject({ limit: 5, reset: dayEnd });
      expect(dayEnd % DAY).toBe(0);
      await freshWindow(); // a new minute window does not lift the day quota
      expectTooMany(await get('k3'), DAY);
      await freshWindow((start) => start >= dayEnd);
      const next = await get('k3');
      expect(next.status, next.text).toBe(200);
      expect(rateOf(next, DAY)).toMatchObject({ limit: 3, remaining: 2 });
    },
  );

  test('a tie reports the quota that resets sooner; when both are spent, the one that resets later', async () => {
    const a = await freshWindow((start) => Math.ceil((start + 1) / DAY) * DAY - start >= 3 * MINUTE);
    const dayEnd = Math.ceil(a / DAY) * DAY;
    for (let i = 0; i < 3; i++) expect((await get('k6')).status).toBe(200);
    const b = await freshWindow();
    for (const remaining of [2, 1, 0]) {
      // minute and day tie at 2, 1, 0: the minute resets sooner
      expect(rateOf(await get('k6'), DAY)).toMatchObject({ limit: 3, remaining, reset: b });
    }
    const both = await get('k6');
    expectTooMany(both, DAY);
    expect(rateOf(both, DAY)).toMatchObject({ limit: 6, remaining: 0, reset: dayEnd });
  });

  test('every kind of answer carries the rate-limit headers: 401, 400, 404, 405, 413, 429', async () => {
    const statuses: number[] = [];
    for (const res of [
      await call(srv.origin, 'GET', '/v1/pets'),
      await get('kg', '/pets?limit=0'),
      await get('kg', '/pets/1'),
      await call(srv.origin, 'PUT', '/v1/pets', { key: 'kg' }),
      await call(srv.origin, 'POST', '/v1/pets', { key: 'kg', body: 'x'.repeat(70_000) }),
    ]) {
      expectError(res, res.status, DAY);
      statuses.push(res.status);
    }
    expect(statuses).toEqual([401, 400, 404, 405, 413]);
  });
});
