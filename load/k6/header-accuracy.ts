// k6: header accuracy under concurrency — far more simultaneous requests than the limit on a fresh
// window (the core's burst probe): every response carries valid X-RateLimit-* headers, exactly the
// limit is admitted, and the Remaining values of the window are distinct and contiguous. The requests
// are concurrent inside one VU (asyncRequest): k6 VUs share no memory, and distinctness can only be
// judged where all of one window's responses are seen.
import { readConfig } from './lib/config.ts';
import { probeScriptModule } from './lib/probe-script.ts';

const probe = probeScriptModule('header-accuracy', readConfig(), ['burst']);

export const { options, setup, handleSummary } = probe;
export default probe.run;
