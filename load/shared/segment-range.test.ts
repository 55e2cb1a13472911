import { expect, it } from 'vitest';
import { parseSegment, segmentRange } from './segment.ts';

// The oracle, written out: key j of `total` belongs to [from, to) when j/total lies in it (a hair of slack
// so that thirds tile [0, 1) despite floating point); the runners' ranges then partition the keys.
const belongs = (j: number, total: number, from: number, to: number): boolean =>
  j / total >= from - 1e-9 && j / total < to - 1e-9;

it('segmentRange holds exactly the keys whose position lies in the segment, for 1..7 runners and 0..40 keys', () => {
  for (let n = 1; n <= 7; n++) {
    for (let total = 0; total <= 40; total++) {
      let next = 0;
      for (let i = 0; i < n; i++) {
        const segment = n === 1 ? '' : `${i}/${n}:${i + 1}/${n}`;
        const span = parseSegment(segment);
        const { start, count } = segmentRange(total, span);
        const expected = Array.from({ length: total }, (_, j) => j).filter((j) =>
          belongs(j, total, span.from, span.to),
        );
        expect(Array.from({ length: count }, (_, k) => start + k)).toEqual(expected);
        expect(start).toBe(next); // consecutive runners continue where the last one stopped
        next = start + count;
      }
      expect(next).toBe(total);
    }
  }
});
