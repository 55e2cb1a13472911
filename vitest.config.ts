import { defineConfig } from 'vitest/config';
import { LongestFirst } from './scripts/test-order.ts';

// Tests sit beside the code they test. *.e2e.test.ts files start servers and take seconds each;
// `npm run test:unit` leaves them out (that is what CI also runs on Node 24).
// Five workers on CI's two cores: the suite's files spend most of their time waiting for compressed
// rate-limit windows, not computing (a quiet run keeps one core busy on average); the longest start first
// (scripts/test-order.ts).
export default defineConfig({
  test: {
    include: ['{spec,core,http,report,reference,conformance,load,cli,testkit,scripts}/**/*.test.ts'],
    exclude: ['**/node_modules/**', 'load/dist/**'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    maxWorkers: 5,
    sequence: { sequencer: LongestFirst },
  },
});
