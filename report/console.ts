// The console face of a run: progress while it runs (bars with ETA redrawn in place on a terminal;
// plain, rate-limited lines in CI logs, where redraws would be noise) and the verdict at the end.
import { formatDuration } from '../core/duration.ts';
import type { ProgressEvent, ProgressSink } from '../core/progress.ts';
import {
  durationSeconds,
  EXIT,
  exitCodeOf,
  failingChecks,
  isNotApplicable,
  readingLine,
  unjudgedMust,
  verdictOf,
  type CheckResult,
  type FailOn,
  type Report,
} from './model.ts';

export interface ConsoleStream {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

export interface ConsoleProgressOptions {
  stream?: ConsoleStream;
  /** Force the terminal or the log form (default: the stream's isTTY). */
  tty?: boolean;
  now?: () => number;
  /** Log form: at most one line per phase this often, besides its first and last. */
  intervalMs?: number;
  /** Terminal form: redraws at most this often. */
  redrawMs?: number;
}

export interface ConsoleProgress {
  sink: ProgressSink;
  /** Erases the live bars (finished phases stay as lines) and leaves the cursor below them. */
  done(): void;
}

interface PhaseState {
  event: ProgressEvent;
  startedAt: number;
  lastAt: number;
  loggedAt: number;
  finished: boolean;
}

/** The runner's ETA when it knows one (quota windows), else extrapolated from the rate so far. */
export function etaOf(state: Pick<PhaseState, 'event' | 'startedAt'>, now: number): number | undefined {
  const { event } = state;
  if (event.etaMs !== undefined) return event.etaMs;
  if (event.total === undefined || event.done <= 0) return undefined;
  return ((now - state.startedAt) / event.done) * Math.max(0, event.total - event.done);
}

const isFinished = (e: ProgressEvent): boolean => e.total !== undefined && e.done >= e.total;

export function progressLine(
  state: Pick<PhaseState, 'event' | 'startedAt'>,
  now: number,
  width = 24,
  bar = true,
): string {
  const { event } = state;
  const eta = etaOf(state, now);
  const parts: string[] = [];
  if (event.total !== undefined && event.total > 0) {
    const fraction = Math.min(1, event.done / event.total);
    if (bar) parts.push(`[${'#'.repeat(Math.round(fraction * width)).padEnd(width, '.')}]`);
    parts.push(`${event.done}/${event.total}`, `${Math.floor(fraction * 100)}%`);
  } else parts.push(`${event.done} done`);
  if (eta !== undefined && !isFinished(event)) parts.push(`ETA ${formatDuration(eta)}`);
  if (isFinished(event)) parts.push(`done in ${formatDuration(now - state.startedAt)}`);
  const message = event.message ? ` — ${event.message}` : '';
  // The phase leads: when a narrow terminal cuts the line, what is cut is the least useful part.
  return bar
    ? `${event.phase.padEnd(PHASE_WIDTH)} ${parts.join(' ')}${message}`
    : `[${event.phase}] ${parts.join(' ')}${message}`;
}

const PHASE_WIDTH = 26;
const SUPERSEDE_AFTER_MS = 1000;

export function createConsoleProgress(options: ConsoleProgressOptions = {}): ConsoleProgress {
  const stream = options.stream ?? process.stderr;
  const tty = options.tty ?? Boolean(stream.isTTY);
  const now = options.now ?? Date.now;
  const interval = options.intervalMs ?? 5000;
  const redrawMs = options.redrawMs ?? 100;
  const phases = new Map<string, PhaseState>();
  let drawnLines = 0;
  let drawnAt = -Infinity;

  // Finished phases are written once and scroll up like a log; the live bars stay below them.
  const redraw = (force: boolean): void => {
    const t = now();
    if (!force && t - drawnAt < redrawMs) return;
    drawnAt = t;
    const columns = stream.columns && stream.columns >= 40 ? stream.columns : 100; // a pty may say 0
    const all = [...phases.entries()];
    const finished = all.filter(([, p]) => isFinished(p.event));
    // A phase that had gone quiet for a while when another one started has been left behind (runners
    // do not always close a phase: "creating pets" has no total); it leaves the live block without a
    // line. Phases started together (the day probes of every plan) run together and all stay.
    const superseded = all.filter(
      ([, p]) => !isFinished(p.event) && all.some(([, q]) => q.startedAt > p.lastAt + SUPERSEDE_AFTER_MS),
    );
    const live = all.filter(([, p]) => !isFinished(p.event) && !superseded.some(([, q]) => q === p));
    for (const [name] of [...finished, ...superseded]) phases.delete(name);
    const lines = [...finished, ...live].map(([, p]) => progressLine(p, t).slice(0, columns - 1));
    // Move up over the previous drawing, rewrite each line, and clear whatever is left below.
    const up = drawnLines > 0 ? `\x1b[${drawnLines}F` : '';
    stream.write(`${up}${lines.map((l) => `\x1b[2K${l}\n`).join('')}\x1b[J`);
    drawnLines = live.length;
  };

  const log = (state: PhaseState, t: number): void => {
    state.loggedAt = t;
    stream.write(`${progressLine(state, t, 0, false)}\n`);
  };

  const sink: ProgressSink = (event) => {
    const t = now();
    let state = phases.get(event.phase);
    const isNew = !state;
    if (!state) {
      state = { event, startedAt: t, lastAt: t, loggedAt: -Infinity, finished: false };
      phases.set(event.phase, state);
    }
    state.event = event;
    state.lastAt = t;
    if (tty) return redraw(isNew || isFinished(event));
    const finishedNow = isFinished(event) && !state.finished;
    if (finishedNow) state.finished = true;
    if (isNew || finishedNow || t - state.loggedAt >= interval) log(state, t);
  };

  // At the end the live block is erased: the finished lines stay, the verdict follows them.
  const done = (): void => {
    if (!tty || drawnLines === 0) return;
    stream.write(`\x1b[${drawnLines}F\x1b[J`);
    drawnLines = 0;
    phases.clear();
  };
  return { sink, done };
}

const COLOURS = { pass: '\x1b[32m', fail: '\x1b[31m', incomplete: '\x1b[33m', reset: '\x1b[0m' } as const;

export interface VerdictOptions {
  failOn?: FailOn;
  /** Where report.html was written, to point the reader at it. */
  htmlPath?: string;
  colour?: boolean;
  /** Failing checks listed individually, at most. */
  maxListed?: number;
}

/** The verdict word as the console says it: an allowed INCOMPLETE says it was allowed, never PASS. */
export function verdictWord(report: Report, failOn: FailOn = 'must'): string {
  const word = verdictOf(report, failOn).toUpperCase();
  return report.allowIncomplete && word === 'INCOMPLETE' ? 'INCOMPLETE, allowed by --allow-incomplete' : word;
}

/** Checks that share a reason and a fix, in the order first seen: one reason, every id under it. */
function byReason(checks: readonly CheckResult[]): Array<{ reason: string; fix?: string; ids: string[] }> {
  const groups = new Map<string, { reason: string; fix?: string; ids: string[] }>();
  for (const c of checks) {
    const reason = c.skipReason ?? 'not run';
    const key = `${reason}\u0000${c.fix ?? ''}`;
    const group = groups.get(key) ?? { reason, ...(c.fix !== undefined ? { fix: c.fix } : {}), ids: [] };
    group.ids.push(c.id);
    groups.set(key, group);
  }
  return [...groups.values()];
}

/** Ids joined, wrapped so that a long list (a run stopped early) stays readable. */
function idLines(ids: readonly string[], indent: string, width = 110): string[] {
  const lines: string[] = [];
  let line = '';
  for (const id of ids) {
    const next = line ? `${line}, ${id}` : id;
    if (line && indent.length + next.length > width) {
      lines.push(`${indent}${line},`);
      line = id;
    } else line = next;
  }
  return line ? [...lines, `${indent}${line}`] : lines;
}

/**
 * The line above the MUST checks not judged, worded from the run's own exit code: a FAIL or a stopped
 * run exits 1 or 3 whatever else went unjudged, so the line leads with that verdict and adds the rest.
 */
export function unjudgedHead(report: Report, count: number, failOn: FailOn = 'must'): string {
  const checks = `${count} MUST check${count === 1 ? '' : 's'} not judged`;
  const exit = exitCodeOf(report, failOn);
  if (exit === EXIT.fail) return `  FAIL (exit ${exit}); also ${checks}:`;
  if (exit === EXIT.stopped) return `  Stopped before a verdict (exit ${exit}); also ${checks}:`;
  if (exit === EXIT.incomplete) return `  ${checks} (INCOMPLETE, exit ${exit}):`;
  return `  ${checks} (INCOMPLETE, accepted by --allow-incomplete, exit ${exit}):`;
}

/**
 * Every MUST check the run could not judge, with its reason and its fix: the reader learns what kept
 * the run from a verdict and what to change. Checks sharing a reason share a line.
 */
export function unjudgedLines(report: Report, failOn: FailOn = 'must'): string[] {
  const unjudged = unjudgedMust(report);
  if (unjudged.length === 0) return [];
  const lines = [unjudgedHead(report, unjudged.length, failOn)];
  for (const g of byReason(unjudged)) {
    if (g.ids.length === 1) lines.push(`  ? ${g.ids[0]}: ${g.reason}`);
    else lines.push(`  ? ${g.ids.length} checks: ${g.reason}`, ...idLines(g.ids, '      '));
    if (g.fix) lines.push(`      fix: ${g.fix}`);
  }
  return lines;
}

/** A rule that does not bind this run; OBSERVE records are never verdicts, a gap with nothing to observe is no line. */
const notApplicableRule = (c: CheckResult): boolean => isNotApplicable(c) && c.level !== 'OBSERVE';

/** Checks that do not bind this run, apart and brief: the reason (often the command that judges them), then the ids. */
export function notApplicableLines(report: Report): string[] {
  const na = report.checks.filter(notApplicableRule);
  if (na.length === 0) return [];
  const lines = [`  Not applicable to this run (${na.length}, not counted against it):`];
  for (const g of byReason(na)) lines.push(`  · ${g.reason}:`, ...idLines(g.ids, '      '));
  return lines;
}

/** A check failing for more than one cause says so under its first message, one line each. */
function otherCauses(check: CheckResult, shown = 4): string[] {
  const causes = check.causes ?? [];
  if (causes.length < 2) return [];
  const lines = [`      ${causes.length} distinct causes (one example of each in the report):`];
  for (const c of causes.slice(0, shown))
    lines.push(`      · ${c.cause.length > 150 ? `${c.cause.slice(0, 149)}…` : c.cause} ×${c.count}`);
  if (causes.length > shown) lines.push(`      · … and ${causes.length - shown} more`);
  return lines;
}

/** The closing lines every command prints: the verdict, what failed, what was not judged, and where to read more. */
export function verdictLines(report: Report, options: VerdictOptions = {}): string[] {
  const failOn = options.failOn ?? 'must';
  const verdict = verdictOf(report, failOn);
  const failing = failingChecks(report, failOn);
  const count = (pred: (c: Report['checks'][number]) => boolean) => report.checks.filter(pred).length;
  const seconds = durationSeconds(report);
  const word = verdictWord(report, failOn);
  const head = options.colour ? `${COLOURS[verdict]}${word}${COLOURS.reset}` : word;
  const lines = [
    `${head}  petcert ${report.kind} ${report.target}`,
    `  ${report.checks.length} checks: ${count((c) => c.outcome === 'pass')} passed, ${failing.length} failing (${failOn.toUpperCase()}), ` +
      `${count((c) => c.level === 'SHOULD' && c.outcome === 'fail')} SHOULD findings, ${count((c) => c.level === 'OBSERVE')} OBSERVE records, ` +
      `${unjudgedMust(report).length} MUST not judged, ${count(notApplicableRule)} not applicable, ` +
      `${count((c) => c.outcome === 'skip')} skipped in all · ${report.requests} requests in ${seconds !== undefined ? seconds.toFixed(1) : '?'} s` +
      (report.seed !== null ? ` · seed ${report.seed}` : ''),
  ];
  const reading = readingLine(report);
  if (reading) lines.push(`  ${reading}`);
  const max = options.maxListed ?? 20;
  for (const c of failing.slice(0, max))
    lines.push(`  ✗ ${c.level} ${c.id} (${c.specRef}): ${c.failures[0]?.message ?? c.title}`, ...otherCauses(c));
  if (failing.length > max) lines.push(`  … and ${failing.length - max} more`);
  if (report.aborted) lines.push(`  Run stopped early (${report.aborted.code}): ${report.aborted.message}`);
  lines.push(...unjudgedLines(report, failOn), ...notApplicableLines(report));
  if (options.htmlPath) lines.push(`  Report: ${options.htmlPath}`);
  return lines;
}
