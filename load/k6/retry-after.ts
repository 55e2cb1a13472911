// k6: 429 and recovery — Retry-After present and accurate, admitted again after waiting it, backoff
// when 429s persist, and the next window whole. Runs the core's minute probe and reports these checks.
import type { Options } from 'k6/options';
import { readConfig } from './lib/config.ts';
import { runProbeScript, summaryFiles } from './lib/probe-script.ts';
import type { K6SummaryInput } from '../shared/summary.ts';
import { guarded, NO_SILENT_PASS, refuseReplacedScenarios } from './lib/guards.ts';

const config = readConfig();
const SCENARIO = 'retry_after';
const RECOVERY_CHECKS = /^quota\.(retry-after|recovery|rejected)/;

export const options: Options = {
  scenarios: {
    [SCENARIO]: { executor: 'per-vu-iterations', vus: 1, iterations: 1, maxDuration: `${(config.keys.length * 4 + 2) * config.plans.windows.minuteSeconds + 30}s` },
  },
  thresholds: { checks: ['rate==1'], ...NO_SILENT_PASS },
};

export function setup(): void {
  refuseReplacedScenarios([SCENARIO]);
}

export default guarded('retry-after', async () => {
  await runProbeScript(config, ['minute'], (r) => RECOVERY_CHECKS.test(r.id));
});

export function handleSummary(data: K6SummaryInput): Record<string, string> {
  return summaryFiles('retry-after', config, data);
}
