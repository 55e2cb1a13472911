// Response checks judge every exchange the transport sees, writing to the run's ledger (the one
// verdict model's, report/ledger.ts): a finding when the rule broke, an application when it held.
import type { Exchange } from '../../core/exchange.ts';
import type { Ledger } from '../../report/ledger.ts';
import type { Check, ResponseCheck } from '../checks/types.ts';
import type { RunContext } from '../context.ts';

export function judgeExchange(ledger: Ledger, checks: readonly ResponseCheck[], exchange: Exchange, ctx: RunContext): void {
  for (const check of checks) {
    if (!check.applies(exchange, ctx)) continue;
    const finding = check.judge(exchange, ctx);
    if (finding) ledger.fail(check, finding);
    else ledger.pass(check);
  }
}
