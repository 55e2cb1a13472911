// The accepted readings as data, proven against limiters built to each reading (fast-check draws the
// requests' times): what each admits within a window's length and when it refuses are what readings.ts
// says, and spec/GAPS.md names every reading the data holds.
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { acceptedReadings, READINGS, readingById, refusalOutsideEveryReading, type ReadingId } from './readings.ts';

const W = 1000;

/** A limiter of `figure` per W under one reading: whether it admits a request at `t` (times non-decreasing). */
function limiterOf(id: ReadingId, figure: number, o: { phase: number; countRefused: boolean }): (t: number) => boolean {
  const seen: number[] = [];
  let tokens = figure;
  let last = 0;
  return (t) => {
    let admit: boolean;
    if (id === 'fixed') {
      const start = Math.floor((t - o.phase) / W) * W + o.phase;
      admit = seen.filter((s) => s >= start).length < figure;
    } else if (id === 'rolling') {
      admit = seen.filter((s) => s > t - W).length < figure;
    } else {
      tokens = Math.min(figure, tokens + ((t - last) * figure) / W);
      last = t;
      admit = tokens >= 1;
      // Counting a refusal, a bucket spends what it holds, never more: one charging refusals to its future is a fault.
      if (admit || o.countRefused) tokens = Math.max(0, tokens - 1);
    }
    if (admit || (o.countRefused && id !== 'bucket')) seen.push(t);
    return admit;
  };
}

const times = fc
  .array(fc.integer({ min: 0, max: 4 * W }), { minLength: 1, maxLength: 120 })
  .map((ts) => [...ts].sort((a, b) => a - b));

describe('every accepted reading', () => {
  it.for(READINGS.map((r) => r.id))(
    '%s: refuses a request only once the figure reached it within the window before (fast-check)',
    (id) => {
      fc.assert(
        fc.property(
          times,
          fc.integer({ min: 1, max: 8 }),
          fc.integer({ min: 0, max: W - 1 }),
          fc.boolean(),
          (ts, figure, phase, countRefused) => {
            const admits = limiterOf(id, figure, { phase, countRefused });
            ts.forEach((t, i) => {
              if (admits(t)) return;
              const within = ts.slice(0, i).filter((s) => s > t - W).length;
              expect(readingById(id).mayRefuse(figure, within)).toBe(true);
            });
          },
        ),
      );
    },
  );

  it.for(READINGS.map((r) => r.id))(
    '%s: admits at most its mostWithinWindow within a window’s length that crosses no end of its own',
    (id) => {
      for (const figure of [1, 5, 20]) {
        // As fast as possible from a full allowance, for one window's length less a tick (so no fixed end is crossed).
        const admits = limiterOf(id, figure, { phase: 0, countRefused: false });
        let admitted = 0;
        for (let t = 0; t < W; t++) if (admits(t)) admitted++;
        expect({ figure, admitted }).toEqual({ figure, admitted: readingById(id).mostWithinWindow(figure) });
      }
    },
  );

  it.for(READINGS.map((r) => r.id))(
    '%s: refills within a window exactly when it admits more than the figure in one',
    (id) => {
      const admits = limiterOf(id, 5, { phase: 0, countRefused: false });
      let admitted = 0;
      for (let t = 0; t < W; t++) if (admits(t)) admitted++;
      expect(readingById(id).refillsWithinWindow).toBe(admitted > 5);
    },
  );

  it('the window reading alone unless the vendor declares a bucket: then the bucket reading too', () => {
    expect(acceptedReadings(undefined).map((r) => r.id)).toEqual(['fixed', 'rolling']);
    expect(acceptedReadings('token-bucket').map((r) => r.id)).toEqual(['fixed', 'rolling', 'bucket']);
  });

  it('a refusal with fewer than the figure within the window is outside every reading, and the finding names them all', () => {
    expect(refusalOutsideEveryReading(20, 20, 2)).toBeUndefined();
    expect(refusalOutsideEveryReading(20, 19, 2)).toBe(
      'no window of 20 per 2 s refuses it, fixed at any phase, rolling, or a bucket refilled over the window',
    );
  });

  it('spec/GAPS.md "Readings" names each reading the data holds, and whether it must be declared', () => {
    const gaps = readFileSync(new URL('../../../spec/GAPS.md', import.meta.url), 'utf8');
    const section = gaps.slice(gaps.indexOf('### Readings'), gaps.indexOf('\n## ', gaps.indexOf('### Readings')));
    for (const r of READINGS) {
      const line = section.split('\n').find((l) => l.includes(r.title));
      expect(line, r.title).toBeDefined();
      expect(line!.includes('declared'), r.title).toBe(r.accepted === 'declared');
    }
  });
});
