// ratelimit.reset-timestamp without a Date header: a server clock hours off is not a fault; a delta
// or milliseconds still are. With a Date header, Reset is judged against it.
import { describe, expect, test } from 'vitest';
import type { Exchange } from '../../core/exchange.ts';
import { resolvePlan, specPlanTable } from '../../spec/plans.ts';
import { fakeClock, inProcess } from '../../testkit/reference/in-process.ts';
import type { LimiterModel } from '../../reference/variants.ts';
import { listRequest, type RunContext } from '../context.ts';
import { runScenario } from '../runner/property.ts';
import { ratelimitChecks } from './ratelimit.ts';
import { UNDECIDED, type ResponseCheck, type ScenarioCheck } from './types.ts';

const check = ratelimitChecks.find((c) => c.id === 'ratelimit.reset-timestamp') as ResponseCheck;
const ctx = { resetHorizonSeconds: 86_400 } as RunContext;
const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);

function exchange(reset: number, extra: Record<string, string> = {}, status = 200): Exchange {
  const headers = {
    'x-ratelimit-limit': '60',
    'x-ratelimit-remaining': '59',
    'x-ratelimit-reset': String(reset),
    ...extra,
  };
  return {
    request: { method: 'GET', url: 'http://127.0.0.1/v1/pets', headers: {} },
    response: { status, headers, body: '[]' },
    sentAt: NOW,
    durationMs: 1,
  };
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
    expect(verdict(exchange(NOW / 1000 + 30, { date }))).toMatchObject({
      message: expect.stringMatching(/before the response's Date/),
    });
  });
  test('the values on a 401 are not judged (GAPS.md: OBSERVE)', () => {
    expect(verdict(exchange(0, {}, 401))).toBe('not applied');
  });
});

// A token bucket refilled faster than conform sends (Business on 2 s windows) reports Limit-1 on every
// answer and a Reset a second away: a refill, not a stuck counter. A fixed window's Reset is its end.
describe('ratelimit.countdown and refilling limiters', () => {
  const countdown = ratelimitChecks.find((c) => c.id === 'ratelimit.countdown')!;
  const bucketCtx = { resetHorizonSeconds: 40, minuteSeconds: 2 } as RunContext;
  async function run(resetIn: number, limit: number, step = 0): Promise<unknown> {
    let t = NOW;
    let remaining = limit;
    const send = async (request: Exchange['request']): Promise<Exchange> => {
      t += 20;
      remaining -= remaining === limit ? 1 : step;
      const headers = {
        'x-ratelimit-limit': String(limit),
        'x-ratelimit-remaining': String(remaining),
        'x-ratelimit-reset': String(NOW / 1000 + resetIn),
        date: new Date(NOW).toUTCString(),
      };
      return { request, response: { status: 200, headers, body: '[]' }, sentAt: t, durationMs: 5 };
    };
    if (countdown.kind !== 'scenario') throw new Error('countdown is a scenario');
    return countdown.run(4, { ...bucketCtx, baseUrl: 'http://127.0.0.1/v1', apiKey: 'k', send } as RunContext);
  }
  // A run that compared nothing is undecided, not a pass.
  test('a full bucket that refills between requests is undecided, never failed', async () => {
    expect(await run(1, 1000)).toBe(UNDECIDED);
  });
  // A give-back only ever hides a decrease: on windows too short to tell the models apart, one is a pass.
  test('Remaining that went down in one window passes, even where a refill could have happened', async () => {
    expect(await run(1, 1000, 1)).toBeUndefined();
  });
  test('a stuck Remaining in a fixed window still fails', async () => {
    expect(await run(2, 1000)).toBe(UNDECIDED); // Reset within what refilling takes: cannot tell
    expect(await run(30, 1000)).toMatchObject({ message: expect.stringMatching(/did not decrease/) });
    expect(await run(1, 6)).toMatchObject({ message: expect.stringMatching(/did not decrease/) }); // no refill in 20 ms
  });
});

// The reference server's limiter models in virtual time, on the spec's windows and a Business key (1,000 a
// minute): a client of the key sent a request every 100 ms for the last two minutes, and the scenario's
// requests keep that pace. In a sliding log the request sent a window earlier ages out between two of
// them: Remaining stays level (-1 + 1) on a correct server (load/limiter-models.e2e.test.ts, 2 runs in 6).
describe('ratelimit.countdown on the reference limiter models at a steady rate', () => {
  const countdown = ratelimitChecks.find((c) => c.id === 'ratelimit.countdown') as ScenarioCheck<number>;
  const table = specPlanTable();
  const PACE_MS = 100;
  const plan = resolvePlan(table, 'business');
  const windows = { resetHorizonSeconds: table.windows.daySeconds, minuteSeconds: table.windows.minuteSeconds };
  async function steadyCtx(
    limiterModel: LimiterModel,
    faults: { remainingStuck?: boolean },
    startSecond: number,
  ): Promise<RunContext> {
    // Starts (and ends, two minutes later) mid-window by default: a fixed window's Reset is 30 s off, far from a log's.
    const clock = fakeClock(Date.UTC(2030, 0, 1, 0, 0, startSecond, 200));
    const call = inProcess({ now: clock.now, variants: { limiterModel }, faults }, plan.name);
    const paced = async (path: string) => {
      const sentAt = clock.now();
      const response = await call('GET', path);
      clock.advance(PACE_MS);
      return { response, sentAt };
    };
    for (let t = 0; t < 2 * table.windows.minuteSeconds * 1000; t += PACE_MS) await paced('/v1/pets?limit=1');
    const send = async (request: Exchange['request']): Promise<Exchange> => {
      const { response, sentAt } = await paced(request.url.slice(request.url.indexOf('/v1')));
      return {
        request,
        response: { status: response.status, headers: response.headers, body: response.body },
        sentAt,
        durationMs: 1,
      };
    };
    const sleep = async (ms: number) => clock.advance(ms);
    const ctx = { baseUrl: 'http://127.0.0.1/v1', apiKey: 'k', send, plan, sleep, ...windows } as RunContext;
    expect((await send(listRequest(ctx, 'limit=1'))).response.status).toBe(200); // the key is the caller's
    return ctx;
  }
  const steady = async (limiterModel: LimiterModel, faults: { remainingStuck?: boolean } = {}, startSecond = 30) =>
    countdown.run(5, await steadyCtx(limiterModel, faults, startSecond));
  /** The check as conform runs it: its runs, and once more after its pause when every one was undecided. */
  const scenario = async (limiterModel: LimiterModel, faults: { remainingStuck?: boolean }, startSecond: number) =>
    runScenario(countdown, await steadyCtx(limiterModel, faults, startSecond), { seed: 1, numRuns: 3, share: 100 });
  test('a sliding log whose Remaining stays level is never failed: what ages out is unknown, so undecided', async () => {
    expect(await steady('sliding-log')).toBe(UNDECIDED);
  });
  test.for(['sliding-counter', 'token-bucket', 'first-request'] as const)(
    '%s at the same pace is never failed',
    async (model) => {
      expect([undefined, UNDECIDED]).toContain(await steady(model));
    },
  );
  // A stuck Remaining on a fixed window judged in a minute's first second (Reset a whole window after Date, as a
  // log's) or its last two (Reset as near as a refill's) decided nothing: conform.e2e's remainingStuck row was
  // unjudged beside a CPU hog. Every run undecided, the check runs once more past the window's edges.
  test.for([0, 58, 59])(
    'a stuck Remaining at second %i of a fixed window is undecided there, and fails once the edge has passed',
    async (startSecond) => {
      expect(await steady('fixed', { remainingStuck: true }, startSecond)).toBe(UNDECIDED);
      const outcome = await scenario('fixed', { remainingStuck: true }, startSecond);
      expect(outcome.failure?.finding.message).toMatch(/did not decrease/);
    },
  );
  test('a sliding log stays undecided after the pause: unjudged, never failed', async () => {
    const outcome = await scenario('sliding-log', {}, 0);
    expect(outcome).toMatchObject({ judged: 0, runs: 6, undecided: 6 });
    expect(outcome.failure).toBeUndefined();
  });
  test('a fixed window at the same pace still counts down, and a stuck Remaining still fails', async () => {
    expect(await steady('fixed')).toBeUndefined();
    expect(await steady('fixed', { remainingStuck: true })).toMatchObject({
      message: expect.stringMatching(/did not decrease/),
    });
  });
});
