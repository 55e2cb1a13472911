// `petcert quota`: per-plan quotas, Retry-After and rate-limit headers, with progress and an ETA.
// Exit codes: report/model.ts EXIT (0 pass · 1 fail · 2 usage · 3 stopped before a verdict · 4 INCOMPLETE).
import type { Command } from 'commander';
import { ConfigError } from '../core/errors.ts';
import { DEFAULT_SEND_OPTIONS } from '../http/undici-send.ts';
import { createConsoleProgress } from '../report/console.ts';
import { DEFAULT_REPORT_ROOT, REPORT_DIR_HELP } from './report-dirs.ts';
import { ALLOW_INCOMPLETE_HELP, consoleOut, publishRun, sayer, type Out } from './publish.ts';
import { EXIT_CODES_TEXT } from '../report/model.ts';
import {
  failOnFlag,
  integerFlag,
  keyFlag,
  LIMITER_MODEL_HELP,
  limiterModelFlag,
  withLimiterModel,
  type Env,
} from './flags.ts';
import { loadPlansFile } from '../spec/plans-file.ts';
import { specPlanTable } from '../spec/plans.ts';
import { PROBE_NAMES, type ProbeName } from '../load/probes/checks.ts';
import { quotaBoundOf, runQuota } from '../load/quota.ts';
import { JOURNAL_FILE, type Journal } from '../load/journal/format.ts';
import { boundToJournal } from '../load/journal/file.ts';
import { rejudgeAction, REJUDGE_HELP } from './quota-rejudge.ts';
import { answerOf } from '../load/probes/remaining-ceiling.ts';
import { formatBound } from '../core/duration.ts';
import { parseBaseUrl } from '../core/base-url.ts';
import { quotaRefused } from './certify.ts';
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

export interface QuotaFlags extends NetworkCliFlags {
  baseUrl?: string;
  key: string[];
  plans?: string;
  only: string[];
  reportDir: string;
  failOn: string;
  json?: boolean;
  allowProduction?: boolean;
  allowIncomplete?: boolean;
  timeout?: string;
  maxWait?: string;
  limiterModel?: string;
  rejudge?: string;
}

/**
 * PLAN=KEY, or PLAN=env:NAME to read the key from an environment variable (keeps keys out of shell
 * history and `ps`). Splits at the first "=": keys may contain "=".
 */
export function parseKeyFlag(value: string, env: Env = process.env): { plan: string; key: string } {
  const at = value.indexOf('=');
  if (at <= 0 || at === value.length - 1) {
    throw new ConfigError(
      `expected PLAN=KEY or PLAN=env:VARIABLE, got ${JSON.stringify(value.replace(/=.*/, '=…'))} (e.g. --key free=env:PETCERT_FREE_KEY)`,
      '--key',
    );
  }
  const plan = value.slice(0, at);
  return { plan, key: keyFlag(value.slice(at + 1), '--key', env, `the key for plan "${plan}"`) };
}

export function parseOnly(values: string[]): ProbeName[] | undefined {
  if (values.length === 0) return undefined;
  const names = values
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean);
  for (const n of names)
    if (!(PROBE_NAMES as string[]).includes(n))
      throw new ConfigError(`unknown probe "${n}" (known: ${PROBE_NAMES.join(', ')})`, '--only');
  return names as ProbeName[];
}

const STOPPED_ANSWERING =
  'The target stopped answering: check --base-url (it must end in /v1) and that the server is up, then run again.';

/** The action, testable without a process: returns the exit code. */
export async function quotaAction(flags: QuotaFlags, out: Out = consoleOut, env: Env = process.env): Promise<number> {
  if (flags.rejudge !== undefined) return rejudgeAction(flags, out);
  if (!flags.baseUrl)
    throw new ConfigError(
      'is required: the target base URL ending in /v1, e.g. --base-url http://127.0.0.1:8080/v1',
      '--base-url',
    );
  const failOn = failOnFlag(flags.failOn);
  const keys = flags.key.map((k) => parseKeyFlag(k, env));
  if (keys.length === 0)
    throw new ConfigError(
      'give at least one PLAN=KEY (repeat --key for several plans; PLAN=env:VARIABLE reads the key from the environment)',
      '--key',
    );
  const plans = withLimiterModel(loadPlansFile(flags.plans), limiterModelFlag(flags.limiterModel));
  const only = parseOnly(flags.only);
  const timeoutMs = integerFlag(flags.timeout, '--timeout', 1);
  const maxWaitS = integerFlag(flags.maxWait, '--max-wait', 1);
  const maxWaitMs = maxWaitS === undefined ? undefined : maxWaitS * 1000;
  const secrets = keys.map((k) => k.key);
  const say = sayer(out, flags.json);
  const bound = quotaBoundOf({
    keys,
    plans,
    ...(only ? { only } : {}),
    ...(maxWaitMs !== undefined ? { maxWaitMs } : {}),
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
  });
  const baseUrl = parseBaseUrl(flags.baseUrl, '--base-url');
  const network = networkOf(flags, env);
  sayNetwork(network, baseUrl, say);
  // A refused production target gets no request at all (runQuota says why).
  const refused = quotaRefused({ baseUrl, allowProduction: flags.allowProduction === true });
  const identified = refused
    ? undefined
    : await identifyTarget({
        baseUrl,
        key: keys[0]!.key,
        field: '--base-url',
        network,
        ...(timeoutMs !== undefined ? { timeoutMs } : {}),
      });
  if (identified) say(identityLine(baseUrl, identified));
  const publish = {
    reportDir: flags.reportDir,
    json: flags.json,
    failOn,
    secrets,
    out,
    allowIncomplete: flags.allowIncomplete,
  };
  if (identified?.refusal)
    return publishRun(stampNetwork(refusedReport('quota', baseUrl, identified), network, baseUrl), publish);
  say(`Worst case: this run ends within ${formatBound(bound.totalMs)} (${bound.parts.join('; ')})`);
  const progress = createConsoleProgress({ stream: process.stderr });
  let journal: Journal | undefined;
  const run = async (signal: AbortSignal) => {
    let report;
    try {
      report = await overNetwork(network, timeoutMs, (send) =>
        runQuota({
          send,
          baseUrl,
          keys,
          plans,
          allowProduction: flags.allowProduction === true,
          progress: progress.sink,
          signal,
          spentBefore: { [keys[0]!.key]: identified?.withKey ?? 0 }, // the identification's keyed requests count too
          answersBefore: { [keys[0]!.key]: (identified?.keyedAnswers ?? []).map((r) => answerOf(r.status, r.headers)) },
          ...(only ? { only } : {}),
          ...(timeoutMs !== undefined ? { timeoutMs } : {}),
          ...(maxWaitMs !== undefined ? { maxWaitMs } : {}),
          journal: (recorded) => (journal = recorded),
        }),
      );
    } finally {
      progress.done();
    }
    report.requests += identified?.requests ?? 0; // they were sent too (one or two with a key)
    const stamped = stampNetwork(report, network, baseUrl);
    if (journal)
      journal.header = { ...journal.header, requestsBefore: identified?.requests ?? 0, network: stamped.network! };
    return stamped;
  };
  return interruptible(out.err, run, (report) => {
    const after = report.aborted?.code === 'UNREACHABLE' ? [STOPPED_ANSWERING] : [];
    // report.json records the digest of the journal beside it: the re-judge refuses a journal edited since.
    const bound = boundToJournal(report, journal, secrets);
    return publishRun(bound.report, { ...publish, after, beside: bound.beside });
  });
}

const collect = (value: string, previous: string[]): string[] => [...previous, value];

/** A person at a terminal needs the run's own worst case, printed at start; the sum behind it is in the README. */
export const QUOTA_BOUND_POINTER =
  `The run's worst case is printed at start (one Free key, the spec's windows:` +
  ` ${formatBound(quotaBoundOf({ keys: [{ plan: 'free', key: 'k' }], plans: specPlanTable() }).totalMs)}); the formula: load/README.md.`;

const EXAMPLES = `
Examples:
  # every probe for two plans, keys from the environment (never in shell history or ps)
  export PETCERT_FREE_KEY=... PETCERT_PRO_KEY=...
  petcert quota --base-url https://staging.example.com/v1 --key free=env:PETCERT_FREE_KEY --key pro=env:PETCERT_PRO_KEY

  # only the minute and burst probes (about two windows per key), compressed windows from a plans file
  petcert quota --base-url http://127.0.0.1:8080/v1 --key free=KEY1 --plans plans.json --only minute,burst

  # the report on stdout for a script, SHOULD findings failing the run too
  petcert quota --base-url http://127.0.0.1:8080/v1 --key pro=env:PRO_KEY --key free=env:FREE_KEY --json --fail-on should > report.json

  # the same verdicts again, offline, from the journal a run wrote beside its report
  petcert quota --rejudge reports/latest/journal.jsonl.gz --report-dir rejudged

Cost: every probe spends real quota. Minute: ~1-2 windows, perMinute+2 requests. Burst: ~1 window.
Day: ceil(perDay/perMinute) minute windows and ~perDay requests, after waiting (idle) for a day window
long enough to count. A URL the contract lists as production is refused unless --allow-production.

Every wait ends: a Retry-After or Reset beyond the longest window the plans allow is a finding, not a
wait; --max-wait lowers that cap (a probe it cuts short has its checks skipped, saying so).
${QUOTA_BOUND_POINTER}

${NETWORK_HELP.trim()}

${REJUDGE_HELP.trim()}

${EXIT_CODES_TEXT}
Reports: DIR/report.json (checks + per-probe time series), junit.xml, report.html, ${JOURNAL_FILE} (every
exchange of the run, keys redacted: petcert quota --rejudge re-judges it offline).`;

export function registerQuota(program: Command): void {
  const cmd = program
    .command('quota')
    .description('Verify per-plan quotas, Retry-After and rate-limit headers (spends real quota)')
    .option('--base-url <url>', 'target base URL ending in /v1')
    .option(
      '--key <plan=key>',
      'an API key and its plan (PLAN=KEY or PLAN=env:VARIABLE); repeat for several plans',
      collect,
      [],
    )
    .option('--plans <file>', "plans file (figures and window lengths; default: the specification's)")
    .option('--limiter-model <model>', LIMITER_MODEL_HELP)
    .option('--only <probe>', `probes to run: ${PROBE_NAMES.join('|')} (repeatable, or comma-separated)`, collect, [])
    .option('--report-dir <dir>', REPORT_DIR_HELP, DEFAULT_REPORT_ROOT)
    .option('--fail-on <level>', 'must: only MUST failures fail the run; should: SHOULD findings too', 'must')
    .option('--json', 'print report.json to stdout (human output goes to stderr)')
    .option('--allow-production', 'allow quota-exhausting probes against a production URL')
    .option('--allow-incomplete', ALLOW_INCOMPLETE_HELP)
    .option('--timeout <ms>', `per-request timeout in ms (default ${DEFAULT_SEND_OPTIONS.timeoutMs})`)
    .option('--max-wait <seconds>', 'longest single wait (default: the longest window the plans allow + 1.5 s)')
    .option(
      '--rejudge <journal>',
      `re-judge a recorded run offline from its ${JOURNAL_FILE} (no network, no keys): proves the verdict follows from the` +
        ' recorded answers under these rules, not that the service gave them (a journal not matching its report.json: exit 2)',
    );
  addNetworkOptions(cmd)
    .addHelpText('after', EXAMPLES)
    .action(async (flags: QuotaFlags) => {
      process.exitCode = await quotaAction(flags);
    });
}
