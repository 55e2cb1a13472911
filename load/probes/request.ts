// One probe step: a request sent and recorded (observe.ts), then judged by the response rules
// (response-judge.ts) into its key's ledger; an answer the probes cannot interpret stops the probe.
import type { ProbeRun } from './context.ts';
import { ProbeStop, sendProbe, type Observation } from './observe.ts';
import { holdReset, interpretable, RESPONSE_RULES, responseOf } from './response-judge.ts';

export async function observe(run: ProbeRun): Promise<Observation> {
  const { o, headers } = await sendProbe(run);
  const response = responseOf(run, o, headers);
  run.f.judge(RESPONSE_RULES, response);
  holdReset(run, response);
  if (!interpretable(o))
    throw new ProbeStop(
      `unexpected status ${o.status}`,
      'answer an authorised GET /pets with 200, or 429 past the quota (quota.status shows the answer)',
    );
  return o;
}
