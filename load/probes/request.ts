// One probe step: a request sent and recorded (observe.ts), then judged by the response rules
// (response-judge.ts) into its key's ledger; an answer the probes cannot interpret stops the probe.
import type { ProbeRun } from './context.ts';
import { ProbeStop, sendProbe, type Observation } from './observe.ts';
import { interpretable, RESPONSE_RULES, responseOf } from './response-judge.ts';

export async function observe(run: ProbeRun): Promise<Observation> {
  const { o, headers } = await sendProbe(run);
  run.f.judge(RESPONSE_RULES, responseOf(run, o, headers));
  if (!interpretable(o)) throw new ProbeStop(`unexpected status ${o.status}`);
  return o;
}
