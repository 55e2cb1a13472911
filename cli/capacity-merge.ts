// `petcert capacity merge FILES…`: N runners' logs (k6 stdout, `kubectl logs`) → one verdict, by the
// engine's mergeCapacity (load/capacity/run.ts). Also how every capacity report is published.
import type { Command } from 'commander';
import { VERSION } from '../core/version.ts';
import type { Report } from '../report/model.ts';
import { mergeCapacity } from '../load/capacity/run.ts';
import { failOnFlag } from './flags.ts';
import { consoleOut, publishRun, sayer, type Out } from './publish.ts';

export interface MergeFlags {
  reportDir: string;
  failOn: string;
  json?: boolean;
  allowIncomplete?: boolean;
}

/** Capacity's verdict sentence, then what every command prints (publish.ts). */
export function publishCapacity(report: Report, flags: MergeFlags, secrets: readonly string[], out: Out): number {
  const before = report.capacity ? [report.capacity.summary] : [];
  const { reportDir, json, allowIncomplete } = flags;
  return publishRun(report, {
    reportDir,
    json,
    failOn: failOnFlag(flags.failOn),
    secrets,
    out,
    before,
    allowIncomplete,
  });
}

export function mergeAction(files: string[], flags: MergeFlags, out: Out = consoleOut): number {
  failOnFlag(flags.failOn);
  const { report, warnings } = mergeCapacity(files, VERSION);
  for (const warning of warnings) sayer(out, flags.json)(warning);
  return publishCapacity(report, flags, [], out);
}

export function registerCapacityMerge(capacity: Command): void {
  capacity
    .command('merge')
    .description("One capacity verdict from N k6 runners' logs (k6-operator: kubectl logs)")
    .argument('<files...>', 'runner logs holding PETCERT_CAPACITY_RESULT lines')
    // --report-dir, --fail-on, --json and --allow-incomplete are capacity's own options, read wherever they stand.
    .addHelpText(
      'after',
      '\nOptions of petcert capacity that apply: --report-dir, --fail-on, --json, --allow-incomplete.\nExample: petcert capacity merge' +
        ' runner-0.log runner-1.log --report-dir reports',
    )
    .action((files: string[]) => {
      process.exitCode = mergeAction(files, capacity.opts<MergeFlags>());
    });
}
