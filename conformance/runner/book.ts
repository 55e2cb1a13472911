// Response checks judge every exchange the transport sees, writing to the run's ledger (the one
// verdict model's, report/ledger.ts): a finding when the rule broke, an application when it held.
import type { Exchange } from '../../core/exchange.ts';
import { causeOf } from '../../report/cause.ts';
import type { Ledger } from '../../report/ledger.ts';
import type { ResponseCheck } from '../checks/types.ts';
import type { RunContext } from '../context.ts';

/** The coverage case an exchange belongs to: its findings carry the case's name and replay. */
export interface Attribution {
  name: string;
  counterexample: unknown;
  failed(check: ResponseCheck): void;
}

export function judgeExchange(
  ledger: Ledger,
  checks: readonly ResponseCheck[],
  exchange: Exchange,
  ctx: RunContext,
  by?: Attribution,
): void {
  for (const check of checks) {
    if (!check.applies(exchange, ctx)) continue;
    const finding = check.judge(exchange, ctx);
    if (!finding) ledger.pass(check);
    else if (!by) ledger.fail(check, finding);
    else {
      // The case's name leads the message; the cause is the defect's (operation × status × what was
      // wrong), or every coverage case would count as a cause of its own.
      ledger.fail(check, {
        ...finding,
        cause: causeOf(finding),
        message: `${by.name}: ${finding.message}`,
        counterexample: by.counterexample,
      });
      by.failed(check);
    }
  }
}
