// `petcert conform --base-url URL (--api-key KEY [--plan NAME] | --key PLAN=KEY) [--plans FILE] [--seed N]
//                  [--budget N] [--case NAME ...] [--list-cases] [--report-dir DIR] [--fail-on must|should]
//                  [--category-id N] [--timeout MS] [--json]`
// Exit codes: report/model.ts EXIT (0 pass · 1 fail · 2 usage · 3 stopped before a verdict · 4 INCOMPLETE).
import type { Command } from 'commander';
import { ConfigError } from '../core/errors.ts';
import { createConsoleProgress } from '../report/console.ts';
import { EXIT_CODES_TEXT, type FailOn } from '../report/model.ts';
import { conformSummary } from '../report/summary.ts';
import { DEFAULT_REPORT_ROOT, REPORT_DIR_HELP } from './report-dirs.ts';
import { ALLOW_INCOMPLETE_HELP, consoleOut, publishRun, type Out, type Publish } from './publish.ts';
import { failOnFlag, integerFlag, keyFlag, type Env } from './flags.ts';
import { parseKeyFlag } from './quota.ts';
import { loadPlansFile } from '../spec/plans-file.ts';
import { coverageCases, coverageCost } from '../conformance/coverage/cases.ts';
import type { Report } from '../report/model.ts';
import { DEFAULT_BUDGET, minBudget } from '../conformance/runner/budget.ts';
import { CONFORM_DEFAULTS, conformBoundMs, coveringBudget, runConform } from '../conformance/run.ts';
import { formatBound } from '../core/duration.ts';
import { parseBaseUrl } from '../core/base-url.ts';
import { identifyTarget, identityLine, refusedReport } from './identify.ts';
import { interruptible } from './interrupt.ts';
import {
  addNetworkOptions,
  NETWORK_HELP,
  networkOf,
  overNetwork,
  sayNetwork,
  stampNetwork,
  type NetworkCliFlags,
} from './network-flags.ts';

export interface ConformFlags extends NetworkCliFlags {
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
  allowIncomplete?: boolean;
  /** The key's plan: X-RateLimit-Limit is then judged against its figures. */
  plan?: string;
  /** PLAN=KEY (as `petcert quota`): the key and its plan in one flag, instead of --api-key and --plan. */
  key?: string;
  plans?: string;
  case?: string[];
  listCases?: boolean;
}

/** The key and its plan from --api-key [--plan] or --key PLAN=KEY (one of the two, never both). */
function credentialsOf(flags: ConformFlags, env: Env): { apiKey: string; plan?: string } {
  if (flags.key !== undefined && flags.apiKey !== undefined)
    throw new ConfigError('give either --api-key KEY (with --plan NAME) or --key PLAN=KEY, not both', '--key');
  if (flags.key !== undefined) {
    const { plan, key } = parseKeyFlag(flags.key, env);
    if (flags.plan !== undefined && flags.plan.toLowerCase() !== plan.toLowerCase())
      throw new ConfigError(`--key says plan "${plan}", --plan says "${flags.plan}"`, '--plan');
    return { apiKey: key, plan };
  }
  if (!flags.apiKey)
    throw new ConfigError(
      'is required (KEY, or env:VARIABLE to read it from the environment; the key is never printed), or give --key PLAN=KEY',
      '--api-key',
    );
  return { apiKey: keyFlag(flags.apiKey, '--api-key', env), ...(flags.plan !== undefined ? { plan: flags.plan } : {}) };
}

function listCases(out: Out): number {
  for (const c of coverageCases()) out.log(`${c.spec.name}\t${c.check.id}\t${c.spec.rule}`);
  out.log(
    `${coverageCases().length} coverage cases, at most ${coverageCost()} requests; replay one with --case NAME (or a prefix: --case 'NewPet.name:*')`,
  );
  return 0;
}

/** The summary's line on the coverage phase (a skipped Limit check is listed by the summary itself, with its reason). */
export function coverageLines(report: Report): string[] {
  const outcomes = report.checks.flatMap((c) =>
    Object.values((c.observed as { coverage?: Record<string, string> } | undefined)?.coverage ?? {}),
  );
  const count = (test: (o: string) => boolean) => outcomes.filter(test).length;
  const parts = [
    `${count((o) => o === 'pass')} passed`,
    `${count((o) => o.startsWith('fail'))} failed`,
    `${count((o) => o === 'recorded')} recorded`,
    ...[
      ['undecided', count((o) => o === 'undecided')],
      ['skipped', count((o) => o.startsWith('skipped'))],
      ['without an answer', count((o) => o.startsWith('not run') || o === 'no answer')],
    ]
      .filter(([, n]) => n)
      .map(([what, n]) => `${n} ${what}`),
  ];
  return outcomes.length ? [`Coverage: ${outcomes.length} cases — ${parts.join(', ')}`] : [];
}

export async function conformAction(
  flags: ConformFlags,
  out: Out = consoleOut,
  env: Env = process.env,
): Promise<number> {
  if (flags.listCases) return listCases(out);
  if (!flags.baseUrl)
    throw new ConfigError(
      'is required: the target base URL ending in /v1, e.g. --base-url http://127.0.0.1:8080/v1',
      '--base-url',
    );
  const { apiKey, plan } = credentialsOf(flags, env);
  const failOn: FailOn = failOnFlag(flags.failOn);
  const plans = flags.plans === undefined ? undefined : loadPlansFile(flags.plans);
  const seed = integerFlag(flags.seed, '--seed', -(2 ** 31));
  const budget = integerFlag(flags.budget, '--budget', minBudget());
  const categoryId = integerFlag(flags.categoryId, '--category-id', Number.MIN_SAFE_INTEGER);
  const timeoutMs = integerFlag(flags.timeout, '--timeout', 1);
  const runTimeoutMs = integerFlag(flags.runTimeout, '--run-timeout', 1);
  const baseUrl = parseBaseUrl(flags.baseUrl, '--base-url');
  const network = networkOf(flags, env);
  // On stderr, with the progress: stdout opens with the verdict (and carries only JSON with --json).
  sayNetwork(network, baseUrl, out.err);
  const identified = await identifyTarget({
    baseUrl,
    key: apiKey,
    field: '--base-url',
    network,
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
  });
  out.err(identityLine(baseUrl, identified));
  const secrets = [apiKey];
  const reportDir = flags.reportDir ?? DEFAULT_REPORT_ROOT;
  const publish = { reportDir, json: flags.json, failOn, secrets, out, allowIncomplete: flags.allowIncomplete };
  if (identified.refusal)
    return publishRun(stampNetwork(refusedReport('conform', baseUrl, identified), network, baseUrl), publish);
  out.err(
    `Worst case: this run ends within ${formatBound(conformBoundMs({ runTimeoutMs, timeoutMs }))} (--run-timeout, then a request's --timeout in flight)`,
  );
  const progress = createConsoleProgress({ stream: process.stderr });
  const run = async (signal: AbortSignal) => {
    const report = await overNetwork(network, timeoutMs, (send) =>
      runConform({
        send,
        baseUrl,
        apiKey,
        failOn,
        progress: progress.sink,
        signal,
        ...(seed !== undefined ? { seed } : {}),
        ...(budget !== undefined ? { budget } : {}),
        ...(categoryId !== undefined ? { categoryId } : {}),
        ...(timeoutMs !== undefined ? { timeoutMs } : {}),
        ...(runTimeoutMs !== undefined ? { runTimeoutMs } : {}),
        ...(plan !== undefined ? { plan } : {}),
        ...(plans ? { plans } : {}),
        ...(flags.case?.length ? { cases: flags.case } : {}),
      }),
    );
    progress.done();
    report.requests += identified.requests; // they were sent too (one or two with the key)
    return stampNetwork(report, network, baseUrl);
  };
  const summary: Publish['summary'] = (settled, options) => [
    ...conformSummary(settled, options),
    ...coverageLines(settled),
  ];
  return interruptible(out.err, run, (report) => publishRun(report, { ...publish, summary }));
}

export function registerConform(program: Command): void {
  const cmd = program
    .command('conform')
    .description('Run the property-based conformance suite against an Animal Store API v1 base URL')
    .option('--base-url <url>', 'base URL of the target, ending in /v1 (may carry a path prefix)')
    .option(
      '--api-key <key>',
      'API key sent as "Authorization: Bearer <key>", or env:VARIABLE to read it from the environment (never printed)',
    )
    .option(
      '--plan <name>',
      "the key's plan: X-RateLimit-Limit is then judged against its figures (without a plan it is not judged)",
    )
    .option(
      '--key <plan=key>',
      'the key and its plan in one (PLAN=KEY or PLAN=env:VARIABLE, as petcert quota), instead of --api-key and --plan',
    )
    .option('--plans <file>', "plans file: the plans' figures and window lengths (default: the specification's)")
    .option(
      '--case <name>',
      'replay only this coverage case (repeatable; a prefix ending in * picks several); see --list-cases',
      (v: string, prev: string[] = []) => [...prev, v],
    )
    .option('--list-cases', 'print every coverage case (name, the check that judges it, the rule it mutates) and exit')
    .option('--seed <n>', 'seed of the generated inputs; a failure prints it, --seed replays it')
    .option(
      '--budget <n>',
      `most requests the run may send, retries included (default ${DEFAULT_BUDGET}, fits a Free key's day; the least is below)`,
    )
    .option('--report-dir <dir>', REPORT_DIR_HELP)
    .option('--fail-on <level>', 'must: only MUST failures fail the run; should: SHOULD findings too', 'must')
    .option('--category-id <n>', 'create pets only in this category (for servers that refuse unknown category ids)')
    .option('--timeout <ms>', `per-request timeout in ms (default ${CONFORM_DEFAULTS.timeoutMs})`)
    .option(
      '--run-timeout <ms>',
      `deadline of the whole run in ms (default ${CONFORM_DEFAULTS.runTimeoutMs}); past it the run stops with exit 3`,
    )
    .option('--json', 'print report.json to stdout (the summary goes to stderr)')
    .option('--allow-incomplete', ALLOW_INCOMPLETE_HELP);
  addNetworkOptions(cmd)
    // A function: the coverage figures come from deriving the cases, which only conform --help needs.
    .addHelpText(
      'after',
      () => `
Examples:
  petcert conform --base-url https://staging.example.com/v1 --key free=env:PETCERT_FREE_KEY           # every MUST check judged
  petcert conform --base-url https://staging.example.com/v1 --api-key env:PETCERT_API_KEY    # plan unknown: Limit not judged (exit 4)
  petcert conform --base-url http://127.0.0.1:8080/v1 --key free=env:PETCERT_FREE_KEY --budget 5000 --report-dir out/
  petcert conform --base-url https://staging.example.com/v1 --key free=env:PETCERT_FREE_KEY --seed 12345   # replay
  petcert conform --base-url https://api.example.com/shop/v1 --key free=env:PETCERT_FREE_KEY --category-id 7 --fail-on should
      # (a fixed category leaves int64 exactness unjudged: exit 4)
  petcert conform --base-url http://127.0.0.1:8080/v1 --key free=env:PETCERT_FREE_KEY --case 'NewPet.name:type=null'
      # replays one case; the other checks are not run (exit 4)

Coverage: every run first sends ${coverageCases().length} cases derived from the contract (at most ${coverageCost()} requests, part of --budget;
the least --budget is ${minBudget()}; every check gets a run from --budget ${coveringBudget()}, below that some are not judged: exit 4):
each NewPet field × each JSON type it refuses, required fields missing, enum outsiders, int64 edges, limit bounds,
status filters, petIds, and every refused credential on every operation; then random exploration (--seed).

Every wait ends: the run's worst case is --run-timeout plus one request's --timeout (default ${formatBound(conformBoundMs())}),
printed at start; a Retry-After is honoured up to a bounded wait, and endless 429s stop the run (exit 3).

${NETWORK_HELP.trim()}

${EXIT_CODES_TEXT}
Pets created by the run are named "petcert-…" and listed in report.json.`,
    )
    .action(async (flags: ConformFlags) => {
      process.exitCode = await conformAction(flags);
    });
}
