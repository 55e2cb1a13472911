import { expect, it } from 'vitest';
import { eventCheck, eventCounts, eventPasses } from './step-events.ts';

it("names each event per step and reads its count back from k6's checks (a 429 below quota by its fails)", () => {
  expect(eventCheck('failed', 3)).toBe('failed s3');
  expect(eventCheck('below429', 0)).toBe('429 below quota s0');
  expect(eventCheck('unexpected4xx', 12)).toBe('4xx s12');
  expect([eventPasses('failed'), eventPasses('below429'), eventPasses('unexpected4xx')]).toEqual([true, false, true]);
  const checks = [
    { name: 'failed s1', passes: 4, fails: 0 },
    { name: '429 below quota s1', passes: 0, fails: 2 },
    { name: '4xx s1', passes: 7, fails: 0 },
    { name: 'failed s2', passes: 9, fails: 0 },
    { name: 'latency s1 b512', passes: 100, fails: 0 },
  ];
  expect(eventCounts(checks, 1)).toEqual({ failed: 4, below429: 2, unexpected4xx: 7 });
  expect(eventCounts(checks, 2)).toEqual({ failed: 9, below429: 0, unexpected4xx: 0 });
  expect(eventCounts([], 0)).toEqual({ failed: 0, below429: 0, unexpected4xx: 0 });
});
