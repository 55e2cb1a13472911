// Writes a report's artifacts into a directory. Every artifact's final text is scrubbed of secrets
// once more, whatever its renderer did: a key in a report is a leak we cannot take back. Each file is
// written under a temporary name and renamed into place: a reader (or a run killed mid-write) never
// sees half a file (docs/decisions/004).
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { redactText } from '../core/redact.ts';
import type { FailOn, Report } from './model.ts';
import { toJUnit } from './junit.ts';
import { toHtml } from './html.ts';

/**
 * report.json, indented for people, except that each quota sample takes one line: a day probe can
 * record 100,000 samples, and eight lines each would make the file several times larger.
 */
export function reportJson(report: Report): string {
  const { series, ...rest } = report;
  const text = JSON.stringify(rest, null, 2);
  if (series === undefined) return `${text}\n`;
  const probes = Object.entries(series).map(
    ([name, samples]) =>
      `    ${JSON.stringify(name)}: [${samples.length ? `\n${samples.map((s) => `      ${JSON.stringify(s)}`).join(',\n')}\n    ` : ''}]`,
  );
  return `${text.slice(0, -2)},\n  "series": {${probes.length ? `\n${probes.join(',\n')}\n  ` : ''}}\n}\n`;
}

export function writeReport(
  dir: string,
  report: Report,
  secrets: readonly string[],
  failOn: FailOn = 'must',
  /** Files beside the report, already scrubbed by their writer (a quota run's gzip journal): name → bytes. */
  beside: Readonly<Record<string, Uint8Array>> = {},
): string[] {
  mkdirSync(dir, { recursive: true });
  const files: Record<string, string> = {
    'report.json': reportJson(report),
    'junit.xml': toJUnit(report, failOn),
    'report.html': toHtml(report, failOn),
  };
  const written: string[] = [];
  const contents: Array<[string, string | Uint8Array]> = [
    ...Object.entries(files).map(([name, text]): [string, string] => [name, redactText(text, secrets)]),
    ...Object.entries(beside),
  ];
  for (const [name, content] of contents) {
    const path = join(dir, name);
    const temporary = `${path}.${process.pid}.tmp`;
    writeFileSync(temporary, content);
    renameSync(temporary, path);
    written.push(path);
  }
  return written;
}
