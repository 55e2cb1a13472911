// From what a run recorded to report.json's checks: outcome per check, findings as Failures with the
// request and response (the key redacted), a curl repro, the shrunk counterexample and its seed.
import { redactText } from '../core/redact.ts';
import type { CheckResult, Failure } from '../report/model.ts';
import { recordedExchange } from '../report/recorded.ts';
import type { Check } from './checks/types.ts';
import type { RunContext } from './context.ts';
import type { Book, Recorded } from './runner/book.ts';

const MAX_BODY_CHARS = 4000;

function failureOf(recorded: Recorded, secrets: string[]): Failure {
  const { finding, counterexample } = recorded;
  const seed = (counterexample as { seed?: number } | undefined)?.seed;
  return {
    message: seed === undefined ? finding.message : `${finding.message} (shrunk counterexample; this check's seed ${seed})`,
    ...recordedExchange(finding.exchange, secrets, MAX_BODY_CHARS),
    ...(counterexample !== undefined ? { counterexample } : {}),
    ...(finding.expected !== undefined ? { expected: finding.expected } : {}),
    ...(finding.received !== undefined ? { received: finding.received } : {}),
  };
}

export function checkResults(checks: readonly Check[], book: Book, ctx: RunContext, abortMessage: string | undefined): CheckResult[] {
  const secrets = [ctx.apiKey];
  return checks.map((check) => redacted(resultOf(check), secrets));
  function resultOf(check: Check): CheckResult {
    const entry = book.entry(check.id);
    const tally = ctx.observations.get(check.id);
    const observed = tally || Object.keys(entry.info).length ? { ...(tally ? { seen: tally } : {}), ...entry.info } : undefined;
    let skipReason = entry.skipReason;
    if (!skipReason && entry.findings.length === 0) {
      if (check.kind === 'response' && entry.applied === 0) skipReason = abortMessage ? `the run stopped early: ${abortMessage}` : 'no response this rule applies to was seen';
      if (check.kind === 'scenario' && entry.info['runs'] === undefined) skipReason = `the run stopped early${abortMessage ? `: ${abortMessage}` : ''}`;
      if (check.kind === 'summary' && check.level === 'OBSERVE' && !tally) skipReason = 'nothing to observe in this run';
    }
    const outcome = entry.findings.length ? 'fail' : skipReason ? 'skip' : 'pass';
    return {
      id: check.id,
      title: check.title,
      level: check.level,
      specRef: check.specRef,
      outcome,
      ...(observed ? { observed } : {}),
      failures: entry.findings.map((f) => failureOf(f, secrets)),
      ...(outcome === 'skip' && skipReason ? { skipReason } : {}),
    } satisfies CheckResult;
  }
}

/** Counterexamples can hold the key (the bare-key credential): the whole result is scrubbed. */
function redacted(result: CheckResult, secrets: string[]): CheckResult {
  return JSON.parse(redactText(JSON.stringify(result), secrets)) as CheckResult;
}
