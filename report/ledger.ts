// One ledger for every engine: per check, its findings (capped, deduplicated by message, one example
// of every distinct cause before a second of any: cause.ts), how often it applied, why it was skipped,
// what was observed. Its results are report.json's checks, every
// exchange redacted and clipped by one policy.
import { redactText } from '../core/redact.ts';
import type { CheckMeta, Finding, Judged, Rule, Verdict } from './check.ts';
import { causeOf } from './cause.ts';
import type { CheckResult, Failure, SkipKind } from './model.ts';
import { recordedExchange } from './recorded.ts';

/**
 * Failures kept per check: more add size, not evidence. Body characters kept per failure: enough for
 * any Error body and the head of an HTML error page, which is all a reader needs to see what came back.
 */
export const FAILURE_POLICY = { maxPerCheck: 5, maxBodyChars: 2000 } as const;

export interface Entry {
  findings: Finding[];
  /** Every distinct cause of failure seen (cause.ts) and how many findings it had, kept or not. */
  causes?: Record<string, number>;
  /** Exchanges or runs the check judged (a check that never applied is not a pass). */
  applied: number;
  skipReason?: string;
  /** With skipReason: could not judge (the default) or does not apply; and what would let it run. */
  skipKind?: SkipKind;
  fix?: string;
  /** A value recorded as-is (OBSERVE checks), or facts about the run (seed, runs, requests). */
  observed?: unknown;
  info: Record<string, unknown>;
  /** Occurrences of each behaviour seen, for OBSERVE tallies. */
  tally?: Record<string, number>;
}

export interface Ledger<C extends CheckMeta = CheckMeta> {
  entry(check: C): Entry;
  fail(check: C, finding: Finding): void;
  /** The check applied and held (clears an earlier skip: it was reached after all). */
  pass(check: C): void;
  /**
   * Recorded only while the check has no other outcome: a reached check is never reported skipped.
   * The default kind is 'unjudged' (could not judge): a skip is never silently a pass.
   */
  skip(check: C, reason: string, how?: SkipHow): void;
  observe(check: C, observed: unknown): void;
  count(check: C, label: string): void;
  failed(check: C): boolean;
  /** Every check written to, in the order first written. */
  entries(): Array<[C, Entry]>;
}

export interface SkipHow {
  kind?: SkipKind;
  /** What would let the check run, e.g. "raise --budget to 212". */
  fix?: string;
}

export function createLedger<C extends CheckMeta>(): Ledger<C> {
  const entries = new Map<string, [C, Entry]>();
  const clearSkip = (e: Entry) => {
    delete e.skipReason;
    delete e.skipKind;
    delete e.fix;
  };
  const entry = (check: C): Entry => {
    let e = entries.get(check.id)?.[1];
    if (!e) entries.set(check.id, [check, (e = { findings: [], applied: 0, info: {} })]);
    return e;
  };
  const reached = (e: Entry) =>
    e.applied > 0 || e.findings.length > 0 || e.observed !== undefined || e.tally !== undefined;
  return {
    entry,
    fail(check, finding) {
      const e = entry(check);
      clearSkip(e);
      keepFinding(e, finding);
    },
    pass(check) {
      const e = entry(check);
      clearSkip(e);
      e.applied += 1;
    },
    skip(check, reason, how = {}) {
      const e = entry(check);
      if (reached(e) || e.skipReason !== undefined) return;
      e.skipReason = reason;
      e.skipKind = how.kind ?? 'unjudged';
      if (how.fix !== undefined) e.fix = how.fix;
    },
    observe(check, observed) {
      const e = entry(check);
      clearSkip(e);
      e.observed = observed;
    },
    count(check, label) {
      const e = entry(check);
      e.tally ??= {};
      e.tally[label] = (e.tally[label] ?? 0) + 1;
    },
    failed: (check) => (entries.get(check.id)?.[1].findings.length ?? 0) > 0,
    entries: () => [...entries.values()],
  };
}

/** Records a judge's Verdict: the one way a result reaches the ledger from a rule. */
export function record<C extends CheckMeta>(ledger: Ledger<C>, check: C, v: Verdict): void {
  switch (v.kind) {
    case 'pass':
      return ledger.pass(check);
    case 'fail':
      return v.findings.forEach((f) => ledger.fail(check, f));
    case 'unjudged':
      return ledger.skip(check, v.reason, v.fix === undefined ? {} : { fix: v.fix });
    case 'not-applicable':
      return ledger.skip(check, v.reason, { kind: 'not-applicable' });
    case 'observed':
      return ledger.observe(check, v.value);
  }
}

/**
 * The guard first (a Verdict when the rule does not speak about this observation), then the judge; the
 * rule's facts, when it keeps any, are recorded after its verdict (a skip's reason stays beside them).
 */
export function judgeRule<O, C extends CheckMeta>(ledger: Ledger<C>, rule: Rule<O, C>, observation: O): void {
  for (const v of verdictsOf(rule.applies?.(observation) ?? rule.judge(observation))) record(ledger, rule.check, v);
  const facts = rule.facts?.(observation);
  if (facts !== undefined) ledger.entry(rule.check).observed = facts;
}

/** A judge's one Verdict or several, as a list. */
export const verdictsOf = (judged: Judged): readonly Verdict[] =>
  'kind' in judged ? [judged as Verdict] : (judged as readonly Verdict[]);

/**
 * The failure cap, kept by cause (docs/decisions/002): a new cause always gets a place while the kept
 * findings hold a second example of some cause (the newest such example gives way); a further example
 * of a known cause only fills free places. So the report shows one example of every cause (up to the
 * cap) before a second of any.
 */
function keepFinding(e: Entry, finding: Finding): void {
  const cause = causeOf(finding);
  e.causes ??= {};
  const known = e.causes[cause] !== undefined;
  e.causes[cause] = (e.causes[cause] ?? 0) + 1;
  if (e.findings.some((f) => f.message === finding.message)) return;
  if (e.findings.length < FAILURE_POLICY.maxPerCheck) {
    e.findings.push(finding);
    return;
  }
  if (known) return;
  const kept = e.findings.map(causeOf);
  for (let i = kept.length - 1; i >= 0; i -= 1) {
    if (kept.indexOf(kept[i]!) === i) continue;
    e.findings.splice(i, 1, finding);
    return;
  }
}

export interface ResultOptions {
  /** Secrets no output may carry: the keys, and whatever a server echoed of them. */
  secrets: readonly string[];
  /** Appended to id and title, e.g. the plan ("quota.minute.exact[free]"), so plans never merge. */
  label?: string;
}

export function failureOf(finding: Finding, secrets: readonly string[]): Failure {
  return {
    message: finding.message,
    ...recordedExchange(finding.exchange, secrets, FAILURE_POLICY.maxBodyChars),
    ...(finding.counterexample !== undefined ? { counterexample: finding.counterexample } : {}),
    ...(finding.expected !== undefined ? { expected: finding.expected } : {}),
    ...(finding.received !== undefined ? { received: finding.received } : {}),
  };
}

/** The report's result for one check; the whole result is scrubbed, since counterexamples can hold a key. */
export function resultOf(check: CheckMeta, e: Entry, o: ResultOptions): CheckResult {
  const outcome = e.findings.length ? 'fail' : e.skipReason !== undefined ? 'skip' : 'pass';
  const observed =
    e.observed ??
    (e.tally || Object.keys(e.info).length ? { ...(e.tally ? { seen: e.tally } : {}), ...e.info } : undefined);
  const result: CheckResult = {
    id: o.label ? `${check.id}[${o.label}]` : check.id,
    title: o.label ? `${check.title} (${o.label})` : check.title,
    level: check.level,
    specRef: check.specRef,
    outcome,
    ...(observed !== undefined ? { observed } : {}),
    failures: e.findings.map((f) => failureOf(f, o.secrets)),
    ...(e.causes && Object.keys(e.causes).length > 1
      ? { causes: Object.entries(e.causes).map(([cause, count]) => ({ cause, count })) }
      : {}),
    ...(outcome === 'skip' ? { skipReason: e.skipReason, skipKind: e.skipKind ?? 'unjudged' } : {}),
    ...(outcome === 'skip' && e.fix !== undefined ? { fix: e.fix } : {}),
  };
  return JSON.parse(redactText(JSON.stringify(result), o.secrets)) as CheckResult;
}
