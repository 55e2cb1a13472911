// What would tell an unknown model, as the fix of the day rules it leaves unjudged. A limiter no test had met
// (aligned fixed windows, minute checked before the day, the day's headers on a 200, Retry-After the window's
// length) left quota.day.exact unjudged after the minute probe ran, and its fix said "run the minute probe too".
// The fix now names what the minute probe lacked: answers whose headers show the binding quota.
import { describe, expect, it } from 'vitest';
import type { ProbeName } from '../checks.ts';
import { FAKE_START_MS } from '../../../testkit/load/in-process.ts';
import { runShape } from '../../../testkit/load/shape-run.ts';

const run = (only?: ProbeName[]) =>
  runShape({
    windows: { minuteSeconds: 8, daySeconds: 96 },
    plans: { free: { perMinute: 5, perDay: 20 } },
    shape: {
      meter: 'aligned',
      originMs: FAKE_START_MS - 613,
      headers: { chain: ['minute', 'day'] },
      retryAfterWindow: true,
    },
    latencyMs: [0, 2],
    seed: 1,
    ...(only ? { only } : {}),
  });

const dayExact = (r: Awaited<ReturnType<typeof run>>) => r.checks.find((c) => c.id === 'quota.day.exact[free]');

describe("the fix of a day rule left unjudged on the limiter's unknown model", () => {
  it('the minute probe ran and could not tell it: answers whose headers show the binding quota', async () => {
    expect(dayExact(await run())).toMatchObject({
      outcome: 'skip',
      skipReason: expect.stringMatching(/^the limiter's model is unknown/),
      fix: expect.stringMatching(/^send on each answer the X-RateLimit-\* of the quota that binds it/),
    });
  });

  it('the minute probe did not run (--only day): run it', async () => {
    expect(dayExact(await run(['day']))).toMatchObject({
      outcome: 'skip',
      fix: expect.stringMatching(/^run the minute probe too/),
    });
  });
});
