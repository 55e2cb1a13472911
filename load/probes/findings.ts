// Collects check outcomes for one plan as data. A check seen only passing passes; one failure fails it;
// a check never reached is reported skipped with the reason, never silently absent.
import type { Exchange } from '../../core/exchange.ts';
import type { CheckResult, Failure } from '../../report/model.ts';
import { recordedExchange } from '../../report/recorded.ts';
import { CHECKS, type CheckKey } from './checks.ts';

export interface FailureDetail {
  exchange?: Exchange;
  expected?: unknown;
  received?: unknown;
}

export interface Findings {
  pass(key: CheckKey): void;
  fail(key: CheckKey, message: string, detail?: FailureDetail): void;
  observe(key: CheckKey, observed: unknown): void;
  skip(key: CheckKey, reason: string): void;
  failed(key: CheckKey): boolean;
  results(): CheckResult[];
}

/** Failures per check kept in the report; more add nothing but size. */
const MAX_FAILURES = 5;
/** Response body characters a failure keeps: probe answers are short, a page of HTML is not. */
const MAX_BODY_CHARS = 500;

export function toFailure(message: string, detail: FailureDetail, secrets: readonly string[]): Failure {
  const failure: Failure = { message, ...recordedExchange(detail.exchange, secrets, MAX_BODY_CHARS) };
  if (detail.expected !== undefined) failure.expected = detail.expected;
  if (detail.received !== undefined) failure.received = detail.received;
  return failure;
}

export function createFindings(plan: string, secrets: readonly string[]): Findings {
  const results = new Map<CheckKey, CheckResult>();
  const resultOf = (key: CheckKey): CheckResult => {
    const d = CHECKS[key];
    return { id: `${d.id}[${plan}]`, title: `${d.title} (${plan})`, level: d.level, specRef: d.specRef, outcome: 'pass', failures: [] };
  };
  const touch = (key: CheckKey): CheckResult => {
    let r = results.get(key);
    if (!r) results.set(key, (r = resultOf(key)));
    if (r.outcome === 'skip') {
      r.outcome = 'pass';
      delete r.skipReason;
    }
    return r;
  };
  return {
    pass: (key) => void touch(key),
    fail(key, message, detail = {}) {
      const r = touch(key);
      r.outcome = 'fail';
      if (r.failures.length < MAX_FAILURES) r.failures.push(toFailure(message, detail, secrets));
    },
    observe(key, observed) {
      touch(key).observed = observed;
    },
    skip(key, reason) {
      if (!results.has(key)) results.set(key, { ...resultOf(key), outcome: 'skip', skipReason: reason });
    },
    failed: (key) => results.get(key)?.outcome === 'fail',
    results: () => [...results.values()],
  };
}
