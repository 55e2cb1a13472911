// What the run found, per check: findings (a few per check, deduplicated by message), how often the
// check applied, why it was skipped. Response checks write here from the transport's observer.
import type { Exchange } from '../../core/exchange.ts';
import type { Check, Finding } from '../checks/types.ts';
import type { RunContext } from '../context.ts';

export const MAX_FINDINGS_PER_CHECK = 5;

export interface Recorded {
  finding: Finding;
  counterexample?: unknown;
}

export interface Entry {
  findings: Recorded[];
  applied: number;
  skipReason?: string;
  info: Record<string, unknown>;
}

export interface Book {
  entry(id: string): Entry;
  add(id: string, recorded: Recorded): void;
  judgeExchange(exchange: Exchange, ctx: RunContext): void;
}

export function createBook(checks: readonly Check[]): Book {
  const entries = new Map<string, Entry>(checks.map((c) => [c.id, { findings: [], applied: 0, info: {} }]));
  const entry = (id: string): Entry => {
    const e = entries.get(id);
    if (!e) throw new Error(`unknown check id ${id}`);
    return e;
  };
  const add = (id: string, recorded: Recorded) => {
    const e = entry(id);
    if (e.findings.length >= MAX_FINDINGS_PER_CHECK) return;
    if (e.findings.some((f) => f.finding.message === recorded.finding.message)) return;
    e.findings.push(recorded);
  };
  const responseChecks = checks.filter((c) => c.kind === 'response');
  return {
    entry,
    add,
    judgeExchange(exchange, ctx) {
      for (const check of responseChecks) {
        if (!check.applies(exchange, ctx)) continue;
        entry(check.id).applied += 1;
        const finding = check.judge(exchange, ctx);
        if (finding) add(check.id, { finding });
      }
    },
  };
}
