import { defineConfig } from 'vitest/config';
import { LongestFirst } from './scripts/test-order.ts';

// Tests sit beside the code they test. *.e2e.test.ts files start servers and take seconds each;
// `npm run test:unit` leaves them out (that is what CI also runs on Node 24).
// Three workers on CI's two cores: most e2e files spend their time waiting for compressed rate-limit
// windows, not computing (four left a uvicorn-served proof's Dates stale beside a CPU hog); the longest
// start first (scripts/test-order.ts).
export default defineConfig({
  test: {
    include: ['{spec,core,http,report,reference,conformance,load,cli,testkit,scripts}/**/*.test.ts'],
    exclude: ['**/node_modules/**', 'load/dist/**'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    maxWorkers: 3,
    sequence: { sequencer: LongestFirst },
  },
});
