// k6: the day probe of the shared probe core — paced at the minute limit, one whole day window.
// Long with real windows (ceil(perDay/perMinute) minute windows, after waiting for a fresh day).
import { readConfig } from './lib/config.ts';
import { probeScriptModule } from './lib/probe-script.ts';

const probe = probeScriptModule('quota-day', readConfig(), ['day']);

export const { options, setup, handleSummary } = probe;
export default probe.run;
