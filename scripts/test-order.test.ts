import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { durationsOf, longestFirst } from './test-order.ts';

const ROOT = join(import.meta.dirname, '..');

describe('test order', () => {
  it('lists files of 5 s or more by their path from the root, longest first', () => {
    const report = {
      testResults: [
        { name: join(ROOT, 'a.test.ts'), startTime: 0, endTime: 4_000 },
        { name: join(ROOT, 'cli/b.e2e.test.ts'), startTime: 1_000, endTime: 91_000 },
        { name: join(ROOT, 'c.test.ts'), startTime: 0, endTime: 12_400 },
      ],
    };
    expect(Object.entries(durationsOf(report))).toEqual([
      ['cli/b.e2e.test.ts', 90],
      ['c.test.ts', 12],
    ]);
  });

  it('starts the longest listed files first and keeps the given order among the rest', () => {
    const files = ['u1', 'short', 'u2', 'long', 'u3'];
    expect(longestFirst(files, (f) => f, { long: 90, short: 6 })).toEqual(['long', 'short', 'u1', 'u2', 'u3']);
  });
});
