// k6: does a distributed run split the keys? Constant arrival at RATE requests per second (over all
// runners; k6 gives each runner its segment's share) for DURATION, each runner sending only with the keys
// of its execution segment (load/shared/segment.ts: the rule the capacity bundle's canaries use; its load
// keys are shared by iteration number instead). Each request names the runner's segment in
// `x-petcert-segment`, so the target's logs show which runner used which key. Run it with a TestRun's
// flags to see how a cluster splits work; tested with 1, 2 and 3 real k6 processes.
//
//   k6 run --execution-segment 0:1/2 --execution-segment-sequence 0,1/2,1 -e KEYS=free=K1,pro=K2 load/dist/key-split.js
//
// Env: BASE_URL, KEYS or API_KEY + PLAN, PLANS_FILE, RATE (default 10), DURATION (default 30s), REPORT_DIR.
import { check } from 'k6';
import exec from 'k6/execution';
import http from 'k6/http';
import type { Options } from 'k6/options';
import { readConfig } from './lib/config.ts';
import { EVERY_CHECK_PASSES, guarded, NO_SILENT_PASS, refuseReplacedScenarios } from './lib/guards.ts';
import { summaryFiles } from './lib/probe-script.ts';
import { keysForSegment } from '../shared/segment.ts';
import type { K6SummaryInput } from '../shared/summary.ts';

const config = readConfig();
const SCENARIO = 'key_split';
const RATE = Number(__ENV.RATE || '10');
if (!(Number.isInteger(RATE) && RATE >= 1))
  throw new Error(`RATE=${__ENV.RATE}: a whole number of requests per second (≥ 1)`);

export const options: Options = {
  scenarios: {
    [SCENARIO]: {
      executor: 'constant-arrival-rate',
      rate: RATE,
      timeUnit: '1s',
      duration: __ENV.DURATION || '30s',
      preAllocatedVUs: Math.min(50, RATE),
      maxVUs: Math.max(10, 2 * RATE),
    },
  },
  // Every arrival sent: a dropped one would make the rate a runner's CPU, not the plan.
  thresholds: { ...EVERY_CHECK_PASSES, dropped_iterations: ['count==0'], ...NO_SILENT_PASS },
};

export function setup(): void {
  refuseReplacedScenarios([SCENARIO]);
}

// exec.test.options is readable only outside init: the segment (null without --execution-segment) is read once per VU.
let own: { segment: string; keys: string[] } | undefined;

export default guarded('key-split', async () => {
  if (own === undefined) {
    const segment = exec.test.options.executionSegment ?? '0:1';
    own = {
      segment: String(segment),
      keys: keysForSegment(
        config.keys.map((k) => k.key),
        segment,
      ),
    };
  }
  if (own.keys.length === 0)
    throw new Error(
      `segment ${own.segment} holds none of the ${config.keys.length} keys: give at least as many keys as runners`,
    );
  const key = own.keys[exec.scenario.iterationInInstance % own.keys.length]!;
  const res = await http.asyncRequest('GET', `${config.baseUrl}/pets?limit=1`, null, {
    headers: { authorization: `Bearer ${key}`, 'x-petcert-segment': own.segment },
    tags: { name: 'GET /pets' },
  });
  check(res, { 'status is 200': (r) => r.status === 200 });
});

export function handleSummary(data: K6SummaryInput): Record<string, string> {
  return summaryFiles('key-split', config, data);
}
