// One probe step: a request sent and recorded (observe.ts), then judged (response-judge.ts).
import type { ProbeRun } from './context.ts';
import { sendProbe, type Observation } from './observe.ts';
import { judgeResponse } from './response-judge.ts';

export async function observe(run: ProbeRun): Promise<Observation> {
  const o = await sendProbe(run);
  judgeResponse(run, o);
  return o;
}
