// `petcert quota`: per-plan quotas, Retry-After and rate-limit headers, with progress and an ETA.
// Exit codes as conform: 0 pass · 1 MUST failure · 2 usage/config · 3 unreachable or incomplete.
import type { Command } from 'commander';
import { ConfigError } from '../core/errors.ts';
import { createConsoleProgress } from '../report/console.ts';
import { exitCodeOf } from '../report/model.ts';
import { writeReport } from '../report/write.ts';
import { verdictLines } from '../report/console.ts';
import { loadPlansFile } from '../spec/plans-file.ts';
import { PROBE_NAMES, type ProbeName } from './probes/checks.ts';
import { runQuota } from './quota.ts';

interface QuotaFlags {
  baseUrl?: string;
  key: string[];
  plans?: string;
  only: string[];
  reportDir: string;
  allowProduction?: boolean;
}

export function parseKeyFlag(value: string): { plan: string; key: string } {
  const at = value.indexOf('=');
  if (at <= 0 || at === value.length - 1) throw new ConfigError(`expected PLAN=KEY, got ${JSON.stringify(value.replace(/=.*/, '=…'))}`, '--key');
  return { plan: value.slice(0, at), key: value.slice(at + 1) };
}

export function parseOnly(values: string[]): ProbeName[] | undefined {
  if (values.length === 0) return undefined;
  const names = values.flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean);
  for (const n of names) if (!(PROBE_NAMES as string[]).includes(n)) throw new ConfigError(`unknown probe "${n}" (known: ${PROBE_NAMES.join(', ')})`, '--only');
  return names as ProbeName[];
}

const collect = (value: string, previous: string[]): string[] => [...previous, value];

export function registerQuota(program: Command): void {
  program
    .command('quota')
    .description('Verify per-plan quotas, Retry-After and rate-limit headers (spends real quota)')
    .option('--base-url <url>', 'target base URL ending in /v1')
    .option('--key <plan=key>', 'an API key and its plan; repeat for several plans', collect, [])
    .option('--plans <file>', 'plans file (figures and window lengths)')
    .option('--only <probe>', `probes to run: ${PROBE_NAMES.join('|')} (repeatable)`, collect, [])
    .option('--report-dir <dir>', 'where report.json and junit.xml go', 'reports/quota')
    .option('--allow-production', 'allow quota-exhausting probes against a production URL')
    .action(async (flags: QuotaFlags) => {
      if (!flags.baseUrl) throw new ConfigError('is required', '--base-url');
      const keys = flags.key.map(parseKeyFlag);
      if (keys.length === 0) throw new ConfigError('give at least one PLAN=KEY', '--key');
      const progress = createConsoleProgress();
      const report = await runQuota({
        baseUrl: flags.baseUrl, keys, plans: loadPlansFile(flags.plans), only: parseOnly(flags.only), allowProduction: flags.allowProduction === true, progress: progress.sink,
      });
      progress.done();
      const secrets = keys.map((k) => k.key);
      writeReport(flags.reportDir, report, secrets);
      for (const line of verdictLines(report, { colour: Boolean(process.stdout.isTTY) })) console.log(line);
      process.exitCode = exitCodeOf(report);
    });
}
