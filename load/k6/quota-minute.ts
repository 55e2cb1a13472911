// k6: the minute probe (and isolation, with KEYS of two plans or more) of the shared probe core.
// Env: BASE_URL, KEYS="plan=key,..." or API_KEY + PLAN, PLANS_FILE, REPORT_DIR.
import type { Options } from 'k6/options';
import { readConfig } from './lib/config.ts';
import { runProbeScript, summaryFiles } from './lib/probe-script.ts';
import type { K6SummaryInput } from '../shared/summary.ts';
import { guarded, NO_SILENT_PASS, refuseReplacedScenarios } from './lib/guards.ts';

const config = readConfig();
const SCENARIO = 'quota_minute';
const windowS = config.plans.windows.minuteSeconds;

export const options: Options = {
  scenarios: {
    [SCENARIO]: { executor: 'per-vu-iterations', vus: 1, iterations: 1, maxDuration: `${(config.keys.length * 4 + 2) * windowS + 30}s` },
  },
  thresholds: { checks: ['rate==1'], ...NO_SILENT_PASS },
};

export function setup(): void {
  refuseReplacedScenarios([SCENARIO]);
}

export default guarded('quota-minute', async () => {
  await runProbeScript(config, config.keys.length > 1 ? ['minute', 'isolation'] : ['minute']);
});

export function handleSummary(data: K6SummaryInput): Record<string, string> {
  return summaryFiles('quota-minute', config, data);
}
