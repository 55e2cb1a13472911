// k6: header accuracy under concurrency — far more simultaneous requests than the limit on a fresh
// window (the core's burst probe): every response carries valid X-RateLimit-* headers, exactly the
// limit is admitted, and the Remaining values of the window are distinct and contiguous. The requests
// are concurrent inside one VU (asyncRequest): k6 VUs share no memory, and distinctness can only be
// judged where all of one window's responses are seen.
import type { Options } from 'k6/options';
import { readConfig } from './lib/config.ts';
import { runProbeScript, summaryFiles } from './lib/probe-script.ts';
import type { K6SummaryInput } from '../shared/summary.ts';
import { guarded, NO_SILENT_PASS, refuseReplacedScenarios } from './lib/guards.ts';

const config = readConfig();
const SCENARIO = 'header_accuracy';

export const options: Options = {
  scenarios: {
    [SCENARIO]: { executor: 'per-vu-iterations', vus: 1, iterations: 1, maxDuration: `${6 * config.plans.windows.minuteSeconds + 30}s` },
  },
  thresholds: { checks: ['rate==1'], ...NO_SILENT_PASS },
};

export function setup(): void {
  refuseReplacedScenarios([SCENARIO]);
}

export default guarded('header-accuracy', async () => {
  await runProbeScript(config, ['burst']);
});

export function handleSummary(data: K6SummaryInput): Record<string, string> {
  return summaryFiles('header-accuracy', config, data);
}
