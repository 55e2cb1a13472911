// Re-judges a recorded quota run offline: the same probes and rules as a live run (runQuota), over the
// journal's answers on a virtual clock started where the live run started. No network, no keys: each
// key is a stand-in its label names. A journal that lacks an exchange the probes ask for never passes.
import { silentProgress, type ProgressSink } from '../../core/progress.ts';
import { createVirtualClock } from '../../core/virtual-clock.ts';
import type { CheckResult, Report } from '../../report/model.ts';
import { runQuota } from '../quota.ts';
import type { Journal } from './format.ts';
import { describeMissing, REJUDGE_FIX, replayClock, replayTransport, type Missing } from './replay.ts';

export interface Rejudged {
  report: Report;
  /** Requests the journal had no answer for. */
  missing: Missing[];
  /** Recorded exchanges the probes did not ask for. */
  unused: number;
  /** Recorded exchanges answered. */
  replayed: number;
  /** Recorded clock readings shown to the probes, of how many; whether every reading and wait followed the recording. */
  readings: { shown: number; recorded: number; followed: boolean };
}

/** The stand-in key of a label: any key the run's findings redact as they redact a real one. */
const standIn = (label: string): string => `journal-key-${label}`;

/**
 * A MUST check no probe owns, present only when an exchange was missing: the cut probe's checks say so
 * where they needed the rest, and this one keeps the run from passing where none did.
 */
function incompleteJournal(first: Missing, count: number): CheckResult {
  return {
    id: 'quota.journal.complete',
    title: 'The journal holds every exchange the probes ask for',
    level: 'MUST',
    specRef: 'load/README.md (re-judging a journal)',
    outcome: 'skip',
    skipKind: 'unjudged',
    skipReason: `${count} request${count === 1 ? '' : 's'} had no recorded answer; the first: ${describeMissing(first)}`,
    fix: REJUDGE_FIX,
    failures: [],
  };
}

/** A certification part's report named as the certify report names it (cli/certify.ts combineReports). */
function asPart(report: Report, part: string): Report {
  const named = <T>(record: Record<string, T> | undefined, each: (v: T) => T = (v) => v) =>
    record && Object.fromEntries(Object.entries(record).map(([name, v]) => [`${part}/${name}`, each(v)]));
  return {
    ...report,
    checks: report.checks.map((c) => ({ ...c, id: `${part}/${c.id}`, part })),
    ...(report.series ? { series: named(report.series) } : {}),
    ...(report.subjects ? { subjects: named(report.subjects, (s) => ({ ...s, part })) } : {}),
  } as Report;
}

export async function rejudgeJournal(journal: Journal, progress: ProgressSink = silentProgress): Promise<Rejudged> {
  const h = journal.header;
  const virtual = createVirtualClock(h.startMs);
  const { clock, shown, followed } = replayClock(virtual, h);
  const keys = h.keys.map((k) => ({ plan: k.plan, key: standIn(k.label) }));
  const replay = replayTransport(journal, virtual, new Map(h.keys.map((k) => [standIn(k.label), k.label] as const)));
  const before = h.keys.flatMap((k) => {
    const b = h.before[k.label];
    return b ? [{ key: standIn(k.label), ...b }] : [];
  });
  const report = await runQuota({
    send: replay.send,
    clock,
    baseUrl: h.baseUrl,
    keys,
    plans: h.plans,
    only: h.only,
    // The live run was allowed to send; this one sends nothing.
    allowProduction: true,
    progress,
    spentBefore: Object.fromEntries(before.map((b) => [b.key, b.spent])),
    answersBefore: Object.fromEntries(before.map((b) => [b.key, b.answers])),
    ...(h.maxWaitMs !== undefined ? { maxWaitMs: h.maxWaitMs } : {}),
    ...(h.timeoutMs !== undefined ? { timeoutMs: h.timeoutMs } : {}),
  });
  const missing = replay.missing();
  // An interrupted run's journal lacks what it never sent: the report says INTERRUPTED (the caller marks it), not incomplete.
  if (missing.length > 0 && h.interrupted === undefined)
    report.checks.push(incompleteJournal(missing[0]!, missing.length));
  report.requests += h.requestsBefore;
  const replayed = journal.entries.length - replay.unused();
  const named = h.part === undefined ? report : asPart(report, h.part);
  return {
    report: h.network ? { ...named, network: h.network } : named,
    missing,
    unused: replay.unused(),
    replayed,
    readings: { shown: shown(), recorded: h.clockReads?.length ?? 0, followed: followed() },
  };
}
