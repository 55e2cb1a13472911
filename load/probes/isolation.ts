// The isolation probe: while one key's minute window is spent, every other key is still admitted.
// It rides on the minute probe's exhausted window, so it costs one request per other key.
import type { ProbeRun } from './context.ts';
import { DATE_SLACK_MS as SLACK_MS } from '../../spec/ratelimit.ts';
import { observe } from './request.ts';
import type { WindowCount } from './window.ts';

export async function probeIsolation(spent: ProbeRun, count: WindowCount, others: ProbeRun[]): Promise<void> {
  if (!count.rejected) {
    spent.f.skip('isolation', `the key for plan ${spent.k.plan.name} could not be exhausted`);
    return;
  }
  for (const other of others) {
    const o = await observe(other);
    if (o.admitted) spent.f.pass('isolation');
    else if (o.serverMs < count.endMs - SLACK_MS / 3) {
      spent.f.fail('isolation', `the key for plan ${other.k.plan.name} got ${o.status} right after the key for plan ${spent.k.plan.name} spent its minute quota`, { exchange: o.ex, expected: 'admitted', received: o.status });
    }
  }
}
