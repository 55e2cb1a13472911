// k6: the minute probe (and isolation, with KEYS of two plans or more) of the shared probe core.
// Env: BASE_URL, KEYS="plan=key,..." or API_KEY + PLAN, PLANS_FILE, REPORT_DIR.
import { readConfig } from './lib/config.ts';
import { probeScriptModule } from './lib/probe-script.ts';

const config = readConfig();
const probe = probeScriptModule('quota-minute', config, config.keys.length > 1 ? ['minute', 'isolation'] : ['minute']);

export const { options, setup, handleSummary } = probe;
export default probe.run;
