// How a finished run reaches people and CI, the same for every command that ends in a verdict: the
// report directories (report-dirs.ts), report.json on stdout with --json (everything for people then
// goes to stderr), the verdict lines, where the files are, and the exit code. The report is settled
// here, once: its verdict and whether --allow-incomplete accepted an INCOMPLETE one go into every file.
import { redactText } from '../core/redact.ts';
import { verdictLines, type VerdictOptions } from '../report/console.ts';
import { exitCodeOf, settled, type FailOn, type Report } from '../report/model.ts';
import { writeRunDirs } from './report-dirs.ts';

export interface Out {
  log(line: string): void;
  err(line: string): void;
}

export const consoleOut: Out = { log: console.log, err: console.error };

/** With --json, stdout carries the report only: lines for people go to stderr. */
export const sayer = (out: Out, json: boolean | undefined): ((line: string) => void) => (json ? out.err : out.log);

export interface Publish {
  reportDir: string;
  json?: boolean;
  failOn: FailOn;
  secrets: readonly string[];
  out: Out;
  /** --allow-incomplete: an INCOMPLETE verdict exits 0, and the report says it was allowed. */
  allowIncomplete?: boolean;
  /** Lines said before the verdict (e.g. capacity's summary) and after it (a hint). */
  before?: readonly string[];
  after?: readonly string[];
  /** The verdict lines (default verdictLines; conform adds its counterexamples and repros). */
  summary?: (report: Report, options: VerdictOptions) => string[];
  /** Files written beside report.json in both directories (the quota journal): name → bytes, already scrubbed. */
  beside?: Readonly<Record<string, Uint8Array>>;
}

export const ALLOW_INCOMPLETE_HELP =
  'exit 0 instead of 4 when the run finished with MUST checks it could not judge (the report says it was allowed; a run stopped early still exits 3)';

export function publishRun(finished: Report, o: Publish): number {
  const report = settled(finished, o.failOn, o.allowIncomplete === true);
  const written = writeRunDirs(o.reportDir, report, o.secrets, o.failOn, new Date(), o.beside);
  if (o.json) o.out.log(redactText(JSON.stringify(report, null, 2), o.secrets));
  const say = sayer(o.out, o.json);
  const colour = !o.json && Boolean(process.stdout.isTTY) && !process.env.NO_COLOR;
  const summary = o.summary ?? verdictLines;
  const verdict = summary(report, { failOn: o.failOn, htmlPath: written.htmlPath, colour });
  const lines = [
    ...(o.before ?? []),
    ...verdict,
    `  Also: ${written.runDir} (${['report.json', 'junit.xml', 'report.html', ...Object.keys(o.beside ?? {})].join(', ')})`,
    ...(o.after ?? []),
  ];
  for (const line of lines) say(redactText(line, o.secrets));
  return exitCodeOf(report, o.failOn);
}
