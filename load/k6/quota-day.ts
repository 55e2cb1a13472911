// k6: the day probe of the shared probe core — paced at the minute limit, one whole day window.
// Long with real windows (ceil(perDay/perMinute) minute windows, after waiting for a fresh day).
import type { Options } from 'k6/options';
import { readConfig } from './lib/config.ts';
import { runProbeScript, summaryFiles } from './lib/probe-script.ts';
import type { K6SummaryData } from '../shared/summary.ts';

const config = readConfig();
const { minuteSeconds, daySeconds } = config.plans.windows;

export const options: Options = {
  scenarios: {
    quota_day: { executor: 'per-vu-iterations', vus: 1, iterations: 1, maxDuration: `${3 * daySeconds + 4 * minuteSeconds + 60}s` },
  },
  thresholds: { checks: ['rate==1'] },
};

export default async function (): Promise<void> {
  await runProbeScript(config, ['day']);
}

export function handleSummary(data: K6SummaryData): Record<string, string> {
  return summaryFiles('quota-day', config, data);
}
