import { expect, it } from 'vitest';
import { keysForSegment, parseSegment, segmentRange } from './segment.ts';

it('segmentRange is keysForSegment as an index range, for any split into 1..7 runners and 0..40 keys', () => {
  for (let n = 1; n <= 7; n++) {
    for (let total = 0; total <= 40; total++) {
      const keys = Array.from({ length: total }, (_, j) => j);
      for (let i = 0; i < n; i++) {
        const segment = n === 1 ? '' : `${i}/${n}:${i + 1}/${n}`;
        const { start, count } = segmentRange(total, parseSegment(segment));
        expect(keys.slice(start, start + count)).toEqual(keysForSegment(keys, segment));
      }
    }
  }
});
