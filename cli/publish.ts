// How a finished run reaches people and CI, the same for every command that ends in a verdict: the
// report directories (report-dirs.ts), report.json on stdout with --json (everything for people then
// goes to stderr), the verdict lines, where the files are, and the exit code.
import { redactText } from '../core/redact.ts';
import { verdictLines } from '../report/console.ts';
import { exitCodeOf, type FailOn, type Report } from '../report/model.ts';
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
  /** Lines said before the verdict (e.g. capacity's summary) and after it (a hint). */
  before?: readonly string[];
  after?: readonly string[];
}

export function publishRun(report: Report, o: Publish): number {
  const written = writeRunDirs(o.reportDir, report, o.secrets, o.failOn);
  if (o.json) o.out.log(redactText(JSON.stringify(report, null, 2), o.secrets));
  const say = sayer(o.out, o.json);
  const colour = !o.json && Boolean(process.stdout.isTTY) && !process.env.NO_COLOR;
  const lines = [...(o.before ?? []), ...verdictLines(report, { failOn: o.failOn, htmlPath: written.htmlPath, colour }), `  Also: ${written.runDir} (report.json, junit.xml, report.html)`, ...(o.after ?? [])];
  for (const line of lines) say(redactText(line, o.secrets));
  return exitCodeOf(report, o.failOn);
}
