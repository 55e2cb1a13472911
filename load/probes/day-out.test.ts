// A key whose day runs out inside the minute or burst probe (compressed windows, or a key used earlier the
// same day), on the reference server with windows opened by a key's first request (express-rate-limit's
// and rate-limiter-flexible's memory stores: variant limiterModel 'first-request'), answered 20–120 ms away,
// in virtual time. No minute window gives a spent day back: after a day quota's 429 the probes wait for the
// day's end (day-out.ts), so the correct server's quota.recovery passes with every MUST judged.
import { describe, expect, it } from 'vitest';
import { silentProgress } from '../../core/progress.ts';
import type { ReferenceOptions } from '../../reference/app.ts';
import { parsePlansFile, resolvePlan } from '../../spec/plans.ts';
import { inProcessTarget } from '../../testkit/load/in-process.ts';
import { distantSend, seededStartMs } from '../../testkit/load/at-distance.ts';
import type { ProbeName } from './checks.ts';
import { createContext } from './context.ts';
import { runProbes } from './run.ts';
import { PROBE_WAITS, waitsMs } from './waits.ts';
import { waitCapMs } from './bounds.ts';

const plans = parsePlansFile({
  windows: { minuteSeconds: 2, daySeconds: 20 },
  plans: { free: { perMinute: 5, perDay: 20 } },
});
const key = 'pc_free_dayout_aaaaaa';

interface DayOut {
  seed: number;
  /** Requests the key had admitted in its current day before the probes. */
  spent: number;
  only: ProbeName[];
  faults?: ReferenceOptions['faults'];
  maxWaitMs?: number;
}

async function run(o: DayOut) {
  const t = inProcessTarget({
    plans,
    keys: { [key]: 'free' },
    variants: { limiterModel: 'first-request' },
    ...(o.faults ? { faults: o.faults } : {}),
    startMs: seededStartMs(o.seed),
  });
  const send = distantSend(t, o.seed);
  // Spend the day as an earlier client would: at the minute pace, waiting out each minute 429 (at most a
  // minute window: a faulty Retry-After must not carry the spending into the next day).
  const minuteMs = plans.windows.minuteSeconds * 1000;
  for (let admitted = 0, tries = 0; admitted < o.spent && tries < 100; tries++) {
    const e = await send({
      method: 'GET',
      url: `${t.baseUrl}/pets?limit=1`,
      headers: { authorization: `Bearer ${key}` },
    });
    if (e.response.status === 200) admitted++;
    else await t.clock.sleep(Math.min(Number(e.response.headers['retry-after']) * 1000, minuteMs));
  }
  const ctx = createContext({
    send,
    clock: t.clock,
    baseUrl: t.baseUrl,
    windows: plans.windows,
    progress: silentProgress,
    ...(o.maxWaitMs ? { maxWaitMs: o.maxWaitMs } : {}),
  });
  const start = t.clock.now();
  const r = await runProbes(ctx, [{ key, plan: resolvePlan(plans, 'free') }], o.only, [key]);
  const line = (c: (typeof r.checks)[number]) =>
    `${c.id}: ${c.outcome} ${c.failures[0]?.message ?? c.skipReason ?? ''}`.trim();
  return {
    elapsedMs: t.clock.now() - start,
    bad: r.checks
      .filter(
        (c) => c.outcome === 'fail' || (c.level === 'MUST' && c.outcome === 'skip' && c.skipKind !== 'not-applicable'),
      )
      .map(line),
    check: (id: string) => r.checks.find((c) => c.id === id),
  };
}

const CASES = [14, 15, 16, 17, 18].flatMap((spent) => [1, 2, 3, 4].map((seed) => ({ spent, seed })));

describe("the key's day runs out during the minute probe", () => {
  it.for(CASES)(
    '$spent of 20 spent, seed $seed: the day is waited out, every MUST judged, nothing failed',
    async ({ spent, seed }) => {
      const r = await run({ seed, spent, only: ['minute'] });
      expect(r.bad).toEqual([]);
      expect(r.check('quota.recovery[free]')?.outcome).toBe('pass');
      // Within its declaration, the day wait included (waits.ts).
      expect(r.elapsedMs).toBeLessThanOrEqual(waitsMs(PROBE_WAITS.minute, plans.windows, waitCapMs(plans.windows)));
    },
  );

  // With 12 or 13 spent, the count's answers report the minute (the closer quota) and only the recovery's
  // shows the day nearly spent: the window after the 429 cannot be counted whole in this day. Never failed;
  // quota.rejected.next-window is left unjudged with the fix (a fresh day), the rest judged.
  it.for([12, 13])(
    '%i of 20 spent: the day runs out in the window after the 429: unjudged with the fix, nothing failed',
    async (spent) => {
      const r = await run({ seed: 1, spent, only: ['minute'] });
      expect(r.bad.filter((b) => !b.startsWith('quota.rejected.next-window['))).toEqual([]);
      const next = r.check('quota.rejected.next-window[free]');
      if (next?.outcome === 'skip') expect(next.fix).toMatch(/fresh day window/);
      else expect(next?.outcome).toBe('pass');
    },
  );

  it.for([15, 17])(
    '%i of 20 spent, a day wait beyond --max-wait: recovery unjudged with the fix, never failed',
    async (spent) => {
      const r = await run({ seed: 1, spent, only: ['minute'], maxWaitMs: 4_000 });
      expect(r.bad.filter((b) => / fail /.test(b))).toEqual([]);
      expect(r.check('quota.recovery[free]')).toMatchObject({
        outcome: 'skip',
        skipReason: expect.stringMatching(/day quota ran out, and not waited/),
        fix: expect.stringMatching(/--max-wait \d+ or more/),
      });
    },
  );

  it('a server that refuses the window after a 429 still fails quota.recovery', async () => {
    const r = await run({ seed: 2, spent: 0, only: ['minute'], faults: { noRecovery: true } });
    expect(r.check('quota.recovery[free]')?.outcome).toBe('fail');
  });

  // The spending's own minute 429s set its penalty windows off before the probe: caught on the 429's Remaining.
  it('the same server with its day spent to 15 of 20 still fails the run', async () => {
    const r = await run({ seed: 2, spent: 15, only: ['minute'], faults: { noRecovery: true } });
    expect(r.bad.filter((b) => / fail /.test(b))).not.toEqual([]);
  });
});

describe("the key's day runs out at the burst", () => {
  it.for([1, 2, 3])('seed %i: the burst goes again in the next day window and is judged', async (seed) => {
    const r = await run({ seed, spent: 16, only: ['burst'] });
    expect(r.bad).toEqual([]);
    expect(r.check('quota.burst.exact[free]')?.outcome).toBe('pass');
    expect(r.elapsedMs).toBeLessThanOrEqual(waitsMs(PROBE_WAITS.burst, plans.windows, waitCapMs(plans.windows)));
  });
});

// A Retry-After past the day window (fault 'tooLong') on a day 429 whose headers name the day's Reset about
// 2 s away. Nothing goes to the key before that Retry-After (core/hold-429.ts), whatever its Reset says, and
// a wait beyond --max-wait is not taken: the Retry-After fails, and the rules that need later answers are
// unjudged with the reason, never judged on requests sent early.
const HELD = /probe cut short: not waited: the key's last 429 asks to wait 86401 s more/;

describe('a day 429 whose Retry-After reaches past the day window', () => {
  it('the burst is not sent before that Retry-After: left unjudged, saying so', async () => {
    const r = await run({ seed: 1, spent: 16, only: ['burst'], faults: { retryAfter: 'tooLong' } });
    expect(r.bad.filter((b) => / fail /.test(b))).toEqual([]);
    expect(r.check('quota.burst.exact[free]')?.skipReason).toMatch(HELD);
  });

  it('the minute probe fails the Retry-After; the rules needing answers after it are unjudged, saying so', async () => {
    const r = await run({ seed: 1, spent: 16, only: ['minute'], faults: { retryAfter: 'tooLong' } });
    expect(r.bad.filter((b) => / fail /.test(b)).map((b) => b.split(':')[0])).toEqual([
      'quota.retry-after.accurate[free]',
    ]);
    expect(r.check('quota.recovery[free]')?.skipReason).toMatch(HELD);
  });
});
