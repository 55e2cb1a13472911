// The isolation probe: while one key's minute window is spent, every other key is still admitted.
// It rides on the minute probe's exhausted window, so it costs one request per other key.
import { keySamples, labelOf, type ProbeRun } from './context.ts';
import { isFixed } from './model.ts';
import { DATE_SLACK_MS as SLACK_MS } from '../../spec/ratelimit.ts';
import { observe } from './request.ts';
import type { WindowCount } from './window.ts';

export async function probeIsolation(spent: ProbeRun, count: WindowCount, others: ProbeRun[]): Promise<void> {
  if (!count.rejected) {
    spent.f.skip('isolation', `the key for plan ${spent.k.plan.name} could not be exhausted`);
    return;
  }
  for (const other of others) {
    const explained = ownStateExplains(other); // before this request joins its series
    const o = await observe(other);
    if (o.admitted) spent.f.pass('isolation');
    else if (o.serverMs < count.endMs - SLACK_MS / 3 && !explained) {
      spent.f.fail('isolation', `the key for plan ${other.k.plan.name} got ${o.status} right after the key for plan ${spent.k.plan.name} spent its minute quota`, { exchange: o.ex, expected: 'admitted', received: o.status });
    }
  }
}

/**
 * A limiter that is not a fixed window may still be refusing the other key for its own earlier requests
 * (a counter's last window still weighs); its Remaining only grows while it is idle, so its last answer
 * tells: Remaining 0 then explains a refusal now.
 */
function ownStateExplains(other: ProbeRun): boolean {
  const label = labelOf(other);
  const model = other.ctx.models[label];
  if (model === undefined || isFixed(model)) return false;
  const last = keySamples(other)
    .reduce<{ t: number; remaining?: number; status: number } | undefined>((a, b) => (a === undefined || b.t >= a.t ? b : a), undefined);
  return last !== undefined && (last.status === 429 || (last.remaining ?? 0) < 1);
}
