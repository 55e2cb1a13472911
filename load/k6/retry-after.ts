// k6: 429 and recovery — Retry-After present and accurate, admitted again after waiting it, backoff
// when 429s persist, and the next window whole. Runs the core's minute probe and reports these checks.
import { readConfig } from './lib/config.ts';
import { probeScriptModule } from './lib/probe-script.ts';

const config = readConfig();
const RECOVERY_CHECKS = /^quota\.(retry-after|recovery|rejected)/;
const probe = probeScriptModule('retry-after', config, ['minute'], (r) => RECOVERY_CHECKS.test(r.id));

export const { options, setup, handleSummary } = probe;
export default probe.run;
