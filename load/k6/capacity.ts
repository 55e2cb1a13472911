// k6: capacity at plan rates — constant arrival at FRACTION (default 0.8) of every key's per-minute
// rate, for DURATION. Below the limit no 429 is expected: each one counts in `unexpected_429`
// (threshold: none). Keys are split across execution segments, so a k6-operator TestRun with
// parallelism N never shares a key between runners (each runner gets its share of the rate and keys).
import { check } from 'k6';
import exec from 'k6/execution';
import http from 'k6/http';
import { Counter } from 'k6/metrics';
import type { Options } from 'k6/options';
import { readHeaders } from './lib/headers.ts';
import { readConfig } from './lib/config.ts';
import { summaryFiles } from './lib/probe-script.ts';
import { keysForSegment } from '../shared/segment.ts';
import type { K6SummaryData } from '../shared/summary.ts';

const config = readConfig();
const FRACTION = Number(__ENV.FRACTION || '0.8');
const DURATION = __ENV.DURATION || '2m';
const minuteS = config.plans.windows.minuteSeconds;
// Requests per minute window over all keys; k6 divides the rate between segments by itself.
const perWindow = Math.max(1, Math.floor(config.keys.reduce((sum, k) => sum + k.plan.perMinute * FRACTION, 0)));
const unexpected429 = new Counter('unexpected_429');

export const options: Options = {
  scenarios: {
    capacity: {
      executor: 'constant-arrival-rate',
      rate: perWindow,
      timeUnit: `${minuteS}s`,
      duration: DURATION,
      preAllocatedVUs: Math.min(50, Math.max(2, Math.ceil(perWindow / minuteS))),
      maxVUs: 200,
    },
  },
  thresholds: {
    http_req_duration: ['p(95)<500', 'p(99)<1500'],
    http_req_failed: ['rate<0.01'],
    unexpected_429: ['count==0'],
    checks: ['rate>0.99'],
  },
};

// 429 is an expected status only when the chosen rate is at or above the limit.
http.setResponseCallback(FRACTION >= 1 ? http.expectedStatuses(200, 429) : http.expectedStatuses(200));

/** This runner's keys, each repeated in proportion to its plan's rate (a weighted round robin). */
function wheel(): Array<{ key: string }> {
  const own = keysForSegment(config.keys, exec.test.options.executionSegment);
  const slots: Array<{ key: string }> = [];
  const smallest = Math.min(...own.map((k) => k.plan.perMinute));
  for (const k of own) for (let i = 0; i < Math.round(k.plan.perMinute / smallest); i++) slots.push(k);
  return slots;
}
let slots: Array<{ key: string }> | undefined;

export default async function (): Promise<void> {
  slots ??= wheel();
  if (slots.length === 0) return; // more runners than keys: this one has none
  const k = slots[exec.scenario.iterationInInstance % slots.length]!;
  const res = await http.asyncRequest('GET', `${config.baseUrl}/pets?limit=1`, null, { headers: { authorization: `Bearer ${k.key}` }, tags: { name: 'GET /pets' } });
  if (res.status === 429 && FRACTION < 1) unexpected429.add(1);
  check(res, {
    'status is 200 (or 429 at/above the limit)': (r) => r.status === 200 || (FRACTION >= 1 && r.status === 429),
    'X-RateLimit-* headers valid': (r) => readHeaders(r.headers).ok,
  });
}

export function handleSummary(data: K6SummaryData): Record<string, string> {
  return summaryFiles('capacity', config, data);
}
