// `petcert conform --base-url URL --api-key KEY [--seed N] [--budget N] [--report-dir DIR]
//                  [--fail-on must|should] [--category-id N] [--timeout MS] [--json]`
// Exit 0 no MUST failure · 1 a failure at the --fail-on level · 2 usage error · 3 unreachable or stopped early.
import type { Command } from 'commander';
import { ConfigError } from '../core/errors.ts';
import { redactText } from '../core/redact.ts';
import { createConsoleProgress } from '../report/console.ts';
import { exitCodeOf, type FailOn } from '../report/model.ts';
import { conformSummary } from '../report/summary.ts';
import { DEFAULT_REPORT_ROOT, REPORT_DIR_HELP, writeRunDirs } from './report-dirs.ts';
import { failOnFlag, integerFlag, keyFlag, type Env } from './flags.ts';
import { DEFAULT_BUDGET, MIN_BUDGET } from '../conformance/runner/budget.ts';
import { CONFORM_DEFAULTS, runConform } from '../conformance/run.ts';

export interface ConformFlags {
  baseUrl?: string;
  apiKey?: string;
  seed?: string;
  budget?: string;
  reportDir?: string;
  failOn: string;
  categoryId?: string;
  timeout?: string;
  runTimeout?: string;
  json?: boolean;
}


export async function conformAction(
  flags: ConformFlags,
  out: { log: (s: string) => void; err: (s: string) => void } = { log: console.log, err: console.error },
  env: Env = process.env,
): Promise<number> {
  if (!flags.baseUrl) throw new ConfigError('is required: the target base URL ending in /v1, e.g. --base-url http://127.0.0.1:8080/v1', '--base-url');
  if (!flags.apiKey) throw new ConfigError('is required (KEY, or env:VARIABLE to read it from the environment; the key is never printed)', '--api-key');
  const failOn: FailOn = failOnFlag(flags.failOn);
  const apiKey = keyFlag(flags.apiKey, '--api-key', env);
  const seed = integerFlag(flags.seed, '--seed', -(2 ** 31));
  const budget = integerFlag(flags.budget, '--budget', MIN_BUDGET);
  const categoryId = integerFlag(flags.categoryId, '--category-id', Number.MIN_SAFE_INTEGER);
  const timeoutMs = integerFlag(flags.timeout, '--timeout', 1);
  const runTimeoutMs = integerFlag(flags.runTimeout, '--run-timeout', 1);
  const progress = createConsoleProgress({ stream: process.stderr });
  const report = await runConform({
    baseUrl: flags.baseUrl,
    apiKey,
    failOn,
    progress: progress.sink,
    ...(seed !== undefined ? { seed } : {}),
    ...(budget !== undefined ? { budget } : {}),
    ...(categoryId !== undefined ? { categoryId } : {}),
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    ...(runTimeoutMs !== undefined ? { runTimeoutMs } : {}),
  });
  progress.done();
  const secrets = [apiKey];
  const written = writeRunDirs(flags.reportDir ?? DEFAULT_REPORT_ROOT, report, secrets, failOn);
  if (flags.json) out.log(redactText(JSON.stringify(report, null, 2), secrets));
  const say = flags.json ? out.err : out.log;
  for (const line of conformSummary(report, failOn)) say(redactText(line, secrets));
  say(`Report: ${written.htmlPath} (also ${written.runDir}: report.json, junit.xml, report.html)`);
  return exitCodeOf(report, failOn);
}

export function registerConform(program: Command): void {
  program
    .command('conform')
    .description('Run the property-based conformance suite against an Animal Store API v1 base URL')
    .option('--base-url <url>', 'base URL of the target, ending in /v1 (may carry a path prefix)')
    .option('--api-key <key>', 'API key sent as "Authorization: Bearer <key>", or env:VARIABLE to read it from the environment (never printed)')
    .option('--seed <n>', 'seed of the generated inputs; a failure prints it, --seed replays it')
    .option('--budget <n>', `most requests the run may send, retries included (default ${DEFAULT_BUDGET}, fits a Free key's day; min ${MIN_BUDGET})`)
    .option('--report-dir <dir>', REPORT_DIR_HELP)
    .option('--fail-on <level>', 'must: only MUST failures fail the run; should: SHOULD findings too', 'must')
    .option('--category-id <n>', 'create pets only in this category (for servers that refuse unknown category ids)')
    .option('--timeout <ms>', `per-request timeout in ms (default ${CONFORM_DEFAULTS.timeoutMs})`)
    .option('--run-timeout <ms>', `deadline of the whole run in ms (default ${CONFORM_DEFAULTS.runTimeoutMs}); past it the run stops with exit 3`)
    .option('--json', 'print report.json to stdout (the summary goes to stderr)')
    .addHelpText(
      'after',
      `
Examples:
  petcert conform --base-url https://staging.example.com/v1 --api-key env:PETCERT_API_KEY
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
