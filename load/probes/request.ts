// One probe step: a request sent and recorded (observe.ts), its answer collected for the response rules
// (response-judge.ts, once the probe is over); an answer the probes cannot interpret stops the probe.
import type { ProbeRun } from './context.ts';
import { ProbeStop, sendProbe, type Observation } from './observe.ts';
import { interpretable } from './response-judge.ts';

export async function observe(run: ProbeRun): Promise<Observation> {
  const sent = await sendProbe(run);
  run.answers.push(sent);
  if (!interpretable(sent.o))
    throw new ProbeStop(
      `unexpected status ${sent.o.status}`,
      'answer an authorised GET /pets with 200, or 429 past the quota (quota.status shows the answer)',
    );
  return sent.o;
}
