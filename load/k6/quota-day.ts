// k6: the day probe of the shared probe core — paced at the minute limit, one whole day window.
// Long with real windows (ceil(perDay/perMinute) minute windows, after waiting for a fresh day).
import type { Options } from 'k6/options';
import { readConfig } from './lib/config.ts';
import { runProbeScript, summaryFiles } from './lib/probe-script.ts';
import type { K6SummaryInput } from '../shared/summary.ts';
import { guarded, NO_SILENT_PASS, refuseReplacedScenarios } from './lib/guards.ts';

const config = readConfig();
const SCENARIO = 'quota_day';
const { minuteSeconds, daySeconds } = config.plans.windows;

export const options: Options = {
  scenarios: {
    [SCENARIO]: { executor: 'per-vu-iterations', vus: 1, iterations: 1, maxDuration: `${3 * daySeconds + 4 * minuteSeconds + 60}s` },
  },
  thresholds: { checks: ['rate==1'], ...NO_SILENT_PASS },
};

export function setup(): void {
  refuseReplacedScenarios([SCENARIO]);
}

export default guarded('quota-day', async () => {
  await runProbeScript(config, ['day']);
});

export function handleSummary(data: K6SummaryInput): Record<string, string> {
  return summaryFiles('quota-day', config, data);
}
