// `petcert conform --base-url URL --api-key KEY [--seed N] [--budget N] [--report-dir DIR]
//                  [--fail-on must|should] [--category-id N] [--timeout MS] [--json]`
// Exit 0 no MUST failure · 1 a failure at the --fail-on level · 2 usage error · 3 unreachable or stopped early.
import type { Command } from 'commander';
import { ConfigError } from '../core/errors.ts';
import { redactText } from '../core/redact.ts';
import { createConsoleProgress } from '../report/console.ts';
import { exitCodeOf, type FailOn } from '../report/model.ts';
import { conformSummary } from '../report/summary.ts';
import { writeReport } from '../report/write.ts';
import { DEFAULT_BUDGET, MIN_BUDGET } from './runner/budget.ts';
import { runConform } from './run.ts';

export interface ConformFlags {
  baseUrl?: string;
  apiKey?: string;
  seed?: string;
  budget?: string;
  reportDir?: string;
  failOn: string;
  categoryId?: string;
  timeout?: string;
  json?: boolean;
}

function intFlag(raw: string | undefined, flag: string, min: number): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^-?\d+$/.test(raw) || !Number.isSafeInteger(Number(raw)) || Number(raw) < min) throw new ConfigError(`must be an integer ≥ ${min}, got ${JSON.stringify(raw)}`, flag);
  return Number(raw);
}

export function defaultReportDir(now = new Date()): string {
  return `reports/conform-${now.toISOString().replace(/[:.]/g, '-')}`;
}

export async function conformAction(flags: ConformFlags, out: { log: (s: string) => void; err: (s: string) => void } = { log: console.log, err: console.error }): Promise<number> {
  if (!flags.baseUrl) throw new ConfigError('is required', '--base-url');
  if (!flags.apiKey) throw new ConfigError('is required (the key is never printed)', '--api-key');
  if (flags.failOn !== 'must' && flags.failOn !== 'should') throw new ConfigError(`must be "must" or "should", got ${JSON.stringify(flags.failOn)}`, '--fail-on');
  const failOn: FailOn = flags.failOn;
  const seed = intFlag(flags.seed, '--seed', -(2 ** 31));
  const budget = intFlag(flags.budget, '--budget', MIN_BUDGET);
  const categoryId = intFlag(flags.categoryId, '--category-id', Number.MIN_SAFE_INTEGER);
  const timeoutMs = intFlag(flags.timeout, '--timeout', 1);
  const progress = createConsoleProgress({ stream: process.stderr });
  const report = await runConform({
    baseUrl: flags.baseUrl,
    apiKey: flags.apiKey,
    failOn,
    progress: progress.sink,
    ...(seed !== undefined ? { seed } : {}),
    ...(budget !== undefined ? { budget } : {}),
    ...(categoryId !== undefined ? { categoryId } : {}),
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
  });
  progress.done();
  const dir = flags.reportDir ?? defaultReportDir();
  const written = writeReport(dir, report, [flags.apiKey], failOn);
  const secrets = [flags.apiKey];
  if (flags.json) out.log(redactText(JSON.stringify(report, null, 2), secrets));
  const say = flags.json ? out.err : out.log;
  for (const line of conformSummary(report, failOn)) say(redactText(line, secrets));
  say(`Report: ${written.join(', ')}`);
  return exitCodeOf(report, failOn);
}

export function registerConform(program: Command): void {
  program
    .command('conform')
    .description('Run the property-based conformance suite against an Animal Store API v1 base URL')
    .option('--base-url <url>', 'base URL of the target, ending in /v1 (may carry a path prefix)')
    .option('--api-key <key>', 'API key sent as "Authorization: Bearer <key>" (never printed)')
    .option('--seed <n>', 'seed of the generated inputs; a failure prints it, --seed replays it')
    .option('--budget <n>', `most requests the run may send, retries included (default ${DEFAULT_BUDGET}, fits a Free key's day; min ${MIN_BUDGET})`)
    .option('--report-dir <dir>', 'where report.json and junit.xml go (default reports/conform-<timestamp>)')
    .option('--fail-on <level>', 'must: only MUST failures fail the run; should: SHOULD findings too', 'must')
    .option('--category-id <n>', 'create pets only in this category (for servers that refuse unknown category ids)')
    .option('--timeout <ms>', 'per-request timeout in ms (default 10000)')
    .option('--json', 'print report.json to stdout (the summary goes to stderr)')
    .addHelpText(
      'after',
      `
Examples:
  petcert conform --base-url https://staging.example.com/v1 --api-key "$API_KEY"
  petcert conform --base-url http://127.0.0.1:8080/v1 --api-key "$KEY" --budget 5000 --report-dir out/
  petcert conform --base-url https://staging.example.com/v1 --api-key "$API_KEY" --seed 12345   # replay
  petcert conform --base-url https://api.example.com/shop/v1 --api-key "$API_KEY" --category-id 7 --fail-on should

Exit codes: 0 no MUST failure · 1 a failure at the --fail-on level · 2 usage error · 3 unreachable, or the run
stopped early (endless 429s, run timeout). Pets created by the run are named "petcert-…" and listed in report.json.`,
    )
    .action(async (flags: ConformFlags) => {
      process.exitCode = await conformAction(flags);
    });
}
