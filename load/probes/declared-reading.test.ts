// A bucket of N refilled at N per window admits up to 2N − 1 within one window's length. Under the
// specification's window reading (the default) that fails the counts that show it; declared
// (`--limiter-model token-bucket`) the same bucket passes, and one admitting past a declared bucket fails.
import { describe, expect, it } from 'vitest';
import type { MeterKind } from '../../testkit/load/limiter-shapes.ts';
import { BUCKET_DECLARED, runShape } from '../../testkit/load/shape-run.ts';

const windows = { minuteSeconds: 3, daySeconds: 45 };
const plans = { free: { perMinute: 6, perDay: 48 } };
const EXACT = /^quota\.(minute|burst|day)\.exact\[free\]/;
const exactFailures = (r: Awaited<ReturnType<typeof runShape>>) => r.failed.filter((f) => EXACT.test(f));

describe('the reading a bucket is judged under', () => {
  it.for<MeterKind>(['token-bucket', 'gcra'])(
    '%s undeclared: more than N within one window fails, naming the window reading',
    async (meter) => {
      const r = await runShape({ windows, plans, shape: { meter, headers: 'binding' }, seed: 1 });
      const failed = exactFailures(r);
      expect(failed.length).toBeGreaterThan(0);
      for (const f of failed)
        expect(f).toMatch(/judged under the window reading \(at most \d+ in any window's length\)/);
    },
  );

  it.for<MeterKind>(['token-bucket', 'gcra'])('%s declared: judged as a bucket, it passes', async (meter) => {
    const r = await runShape({
      windows,
      plans,
      shape: { meter, headers: 'binding' },
      seed: 1,
      declared: BUCKET_DECLARED,
    });
    expect(exactFailures(r)).toEqual([]);
  });

  it('a bucket admitting more than a declared bucket allows still fails', async () => {
    const r = await runShape({
      windows,
      plans,
      shape: { meter: 'token-bucket', headers: 'binding', faults: { overAdmit: 10 } },
      latencyMs: [50, 150],
      seed: 1,
      only: ['burst'],
      declared: BUCKET_DECLARED,
    });
    expect(exactFailures(r)).toEqual([
      expect.stringMatching(/^quota\.burst\.exact\[free\]: .*judged as a token bucket \(capacity 6, 6 per window\)/),
    ]);
  });
});
