import { expect, test } from 'vitest';
import { formatBound, formatDuration } from './duration.ts';

test('seconds, minutes, hours, days; a bound rounds up, progress to the nearest second', () => {
  expect([
    formatDuration(5_400),
    formatDuration(65_000),
    formatDuration(3_720_000),
    formatDuration(86_400_000 + 3_600_000),
  ]).toEqual(['5s', '1m05s', '1h02m', '1d01h']);
  expect([formatBound(5_400), formatBound(59_001), formatBound(0)]).toEqual(['6s', '1m00s', '0s']);
});
