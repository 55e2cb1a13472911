// k6: the minute probe (and isolation, with KEYS of two plans or more) of the shared probe core.
// Env: BASE_URL, KEYS="plan=key,..." or API_KEY + PLAN, PLANS_FILE, REPORT_DIR.
import type { Options } from 'k6/options';
import { readConfig } from './lib/config.ts';
import { runProbeScript, summaryFiles } from './lib/probe-script.ts';
import type { K6SummaryData } from '../shared/summary.ts';

const config = readConfig();
const windowS = config.plans.windows.minuteSeconds;

export const options: Options = {
  scenarios: {
    quota_minute: { executor: 'per-vu-iterations', vus: 1, iterations: 1, maxDuration: `${(config.keys.length * 4 + 2) * windowS + 30}s` },
  },
  thresholds: { checks: ['rate==1'] },
};

export default async function (): Promise<void> {
  await runProbeScript(config, config.keys.length > 1 ? ['minute', 'isolation'] : ['minute']);
}

export function handleSummary(data: K6SummaryData): Record<string, string> {
  return summaryFiles('quota-minute', config, data);
}
