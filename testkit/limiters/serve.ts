// Starts one limiter service for a person reproducing a verdict (testkit/limiters/README.md gives the commands):
//   npx tsx testkit/limiters/serve.ts erl --plans plans.json --key kfree=free --key kpro=pro \
//     [--fault overAdmit|wrongRemaining|noRetryAfter|noDay] [--latency MS] [--jitter MS] [--skew S]
// prints the base URL (behind the wrapper when one is asked for) and serves until SIGINT/SIGTERM.
import { parseArgs } from 'node:util';
import { loadPlansFile } from '../../spec/plans-file.ts';
import { LIMITER_FAULTS, type LimiterFault } from './faults.ts';
import { startService, SERVICE_NAMES } from './start.ts';

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    plans: { type: 'string' },
    key: { type: 'string', multiple: true, default: [] },
    fault: { type: 'string' },
    latency: { type: 'string' },
    jitter: { type: 'string' },
    skew: { type: 'string' },
  },
});
const name = positionals[0] ?? '';
const fault = values.fault as LimiterFault | undefined;
if (!SERVICE_NAMES.includes(name) || (fault !== undefined && !LIMITER_FAULTS.includes(fault))) {
  console.error(
    `usage: serve.ts ${SERVICE_NAMES.join('|')} --plans FILE --key KEY=PLAN ... [--fault ${LIMITER_FAULTS.join('|')}]`,
  );
  process.exit(2);
}
const keys = Object.fromEntries(values.key.map((k) => k.split('=', 2) as [string, string]));
const service = await startService(name, {
  plans: loadPlansFile(values.plans),
  keys,
  fault,
  wrap: {
    latencyMs: Number(values.latency ?? 0),
    jitterMs: Number(values.jitter ?? 0),
    skewSeconds: Number(values.skew ?? 0),
  },
});
console.log(service.baseUrl);
const stop = () => void service.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
