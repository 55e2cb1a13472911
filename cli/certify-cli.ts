// `petcert certify [--config FILE] [--target NAME] [--plans FILE] [--report-dir DIR] [--fail-on must|should]
//                  [--json] [--allow-production] [--seed N] [--budget N]`
// With no configuration it certifies the embedded reference server (that is `npm start`).
import type { Command } from 'commander';
import { ConfigError } from '../core/errors.ts';
import { VERSION } from '../core/version.ts';
import { createConsoleProgress } from '../report/console.ts';
import { loadPlansFile } from '../spec/plans-file.ts';
import { certify, quotaRefused } from './certify.ts';
import { realRunners } from './certify-runners.ts';
import { targetFromFlags, type ResolvedTarget } from './config-file.ts';
import { embeddedPlans, startEmbedded } from './embedded.ts';
import { failOnFlag, integerFlag, LIMITER_MODEL_HELP, limiterModelFlag, withLimiterModel } from './flags.ts';
import { DEFAULT_REPORT_ROOT, REPORT_DIR_HELP } from './report-dirs.ts';
import { ALLOW_INCOMPLETE_HELP, consoleOut, publishRun, sayer } from './publish.ts';
import { EXIT_CODES_TEXT } from '../report/model.ts';
import { DEFAULT_BUDGET } from '../conformance/runner/budget.ts';
import { certifyBound, CERTIFY_BOUND_HELP } from './certify-bound.ts';
import { formatBound } from '../core/duration.ts';
import { identifyTarget, identityLine, refusedReport, type Identified } from './identify.ts';
import { interruptible } from './interrupt.ts';
import type { Network } from '../http/network.ts';
import { JOURNAL_FILE, type Journal } from '../load/journal/format.ts';
import { boundToJournal } from '../load/journal/file.ts';
import {
  addNetworkOptions,
  NETWORK_HELP,
  networkOf,
  overNetwork,
  sayNetwork,
  stampNetwork,
  type NetworkCliFlags,
} from './network-flags.ts';

export interface CertifyFlags extends NetworkCliFlags {
  config?: string;
  target?: string;
  plans?: string;
  reportDir: string;
  failOn: string;
  json?: boolean;
  allowProduction?: boolean;
  allowIncomplete?: boolean;
  seed?: string;
  budget?: string;
  maxWait?: string;
  limiterModel?: string;
}

/** Where the run goes: the configured target, or the embedded server (closed by `stop`). */
async function chooseTarget(
  flags: CertifyFlags,
  say: (line: string) => void,
): Promise<{ target: ResolvedTarget; stop: () => Promise<void>; identified?: Identified; network: Network }> {
  const configured = targetFromFlags(flags);
  if (configured) {
    if (flags.plans !== undefined) configured.plans = loadPlansFile(flags.plans);
    const network = networkOf(flags, process.env, configured.network);
    say(
      `Certifying target "${configured.name}": ${configured.baseUrl} (${configured.quotaKeys.map((k) => k.plan).join(', ')})`,
    );
    sayNetwork(network, configured.baseUrl, (line) => say(`  ${line}`));
    if (quotaRefused({ ...configured, allowProduction: flags.allowProduction }))
      say('  production target: quota probes are refused (they spend real quota); pass --allow-production to run them');
    // Is this the Animal Store at all? (The embedded server below is.)
    const key = (configured.conformKeys[0] ?? configured.quotaKeys[0])!.key;
    const identified = await identifyTarget({
      baseUrl: configured.baseUrl,
      key,
      field: `targets.${configured.name}.baseUrl`,
      network,
    });
    say(`  ${identityLine(configured.baseUrl, identified)}`);
    return { target: configured, stop: async () => {}, identified, network };
  }
  const network = networkOf(flags, process.env);
  const plans = embeddedPlans(flags.plans);
  const { server, target } = await startEmbedded(plans);
  say(`No petcert.config.json: certifying the embedded reference server at ${server.baseUrl}`);
  const figures =
    flags.plans === undefined ? "the plans' figures are the specification's" : `plans from ${flags.plans}`;
  say(`  windows: minute = ${plans.windows.minuteSeconds} s, day = ${plans.windows.daySeconds} s; ${figures}`);
  sayNetwork(network, server.baseUrl, (line) => say(`  ${line}`));
  return { target, stop: () => server.close(), network };
}

export async function runCertify(flags: CertifyFlags): Promise<number> {
  const failOn = failOnFlag(flags.failOn);
  const seed = integerFlag(flags.seed, '--seed', 0);
  const budget = integerFlag(flags.budget, '--budget', 1);
  const say = sayer(consoleOut, flags.json);
  const maxWaitS = integerFlag(flags.maxWait, '--max-wait', 1);
  const declared = limiterModelFlag(flags.limiterModel);
  const { target, stop, identified, network } = await chooseTarget(flags, say);
  const publish = {
    reportDir: flags.reportDir,
    json: flags.json,
    failOn,
    secrets: target.secrets,
    out: consoleOut,
    allowIncomplete: flags.allowIncomplete,
  };
  if (identified?.refusal)
    return publishRun(
      stampNetwork(refusedReport('certify', target.baseUrl, identified), network, target.baseUrl),
      publish,
    );
  const bound = certifyBound({
    ...target,
    quotaRefused: quotaRefused({ ...target, allowProduction: flags.allowProduction }),
    ...(maxWaitS !== undefined ? { maxWaitMs: maxWaitS * 1000 } : {}),
  });
  say(`  Worst case: this run ends within ${formatBound(bound.totalMs)} (${bound.parts.join('; ')})`);
  const progress = createConsoleProgress();
  let journal: Journal | undefined;
  const run = async (signal: AbortSignal) => {
    let report;
    try {
      report = await overNetwork(network, undefined, (send) =>
        certify(
          {
            send,
            baseUrl: target.baseUrl,
            production: target.production,
            allowProduction: flags.allowProduction === true,
            conformKeys: target.conformKeys,
            quotaKeys: target.quotaKeys,
            plans: withLimiterModel(target.plans, declared),
            failOn,
            progress: progress.sink,
            version: VERSION,
            signal,
            ...(maxWaitS !== undefined ? { maxWaitMs: maxWaitS * 1000 } : {}),
            ...((seed ?? target.seed) !== undefined ? { seed: (seed ?? target.seed)! } : {}),
            ...((budget ?? target.budget) !== undefined ? { budget: (budget ?? target.budget)! } : {}),
            budgetField: budget !== undefined ? '--budget' : `targets.${target.name}.budget`,
            quotaJournal: (recorded) => (journal = recorded),
          },
          realRunners,
        ),
      );
    } finally {
      progress.done();
      await stop();
    }
    report.requests += identified?.requests ?? 0; // the identification's requests were sent too
    const stamped = stampNetwork(report, network, target.baseUrl);
    if (journal) journal.header = { ...journal.header, network: stamped.network! };
    return stamped;
  };
  // The quota part's journal beside the report, bound to it by its digest as petcert quota's is.
  return interruptible(consoleOut.err, run, (report) => {
    const bound = boundToJournal(report, journal, target.secrets);
    return publishRun(bound.report, { ...publish, beside: bound.beside });
  });
}

const EXAMPLES = `
Without a config file, certify the embedded reference server (what \`npm start\` does):
  petcert certify

Certify the "staging" target of petcert.config.json (keys come from the environment variables it names):
  export PETCERT_FREE_KEY=... PETCERT_PRO_KEY=...
  petcert certify --target staging

Another config file, SHOULD findings failing the run, the report on stdout for a script:
  petcert certify --config ci/petcert.json --target vendor-acme --fail-on should --json > report.json

A target marked "production": true runs its quota probes only when you mean it:
  petcert certify --target production --allow-production

A target behind the company's proxy, served with a private CA, wanting a client certificate (or its
"network" field in the config file):
  petcert certify --target staging [--proxy URL] [--ca-file corp-ca.pem] [--client-cert ci.pem --client-key ci.key]
${NETWORK_HELP}

${CERTIFY_BOUND_HELP}

${EXIT_CODES_TEXT}
Reports: DIR/<timestamp>/ and DIR/latest/ (report.json, junit.xml, report.html, and ${JOURNAL_FILE} when the
quota probes ran: their every exchange, keys redacted; petcert quota --rejudge re-judges the quota part offline).
Config format: docs/certify-your-implementation.md`;

export function registerCertify(program: Command): void {
  const cmd = program
    .command('certify')
    .description('Conformance plus quotas for every configured key: one report, one verdict')
    .option('--config <file>', 'config file (default: ./petcert.config.json when present)')
    .option('--target <name>', 'target in the config file (default: its defaultTarget, or its only target)')
    .option(
      '--plans <file>',
      "plans file: windows and figures (overrides the target's; for the embedded server, its windows)",
    )
    .option('--limiter-model <model>', LIMITER_MODEL_HELP)
    .option('--report-dir <dir>', REPORT_DIR_HELP, DEFAULT_REPORT_ROOT)
    .option('--fail-on <level>', 'must | should: the level at which a failed check fails the run', 'must')
    .option('--json', 'print report.json to stdout (human output goes to stderr)')
    .option('--allow-production', 'run quota probes against a target marked production (spends real quota)')
    .option('--allow-incomplete', ALLOW_INCOMPLETE_HELP)
    .option('--seed <n>', 'conformance seed (replays a run)')
    .option(
      '--budget <n>',
      `conformance request budget per conform key (default: the least that runs every check, at least ${DEFAULT_BUDGET}; less is refused, exit 2)`,
    )
    .option('--max-wait <seconds>', 'longest single wait of the quota probes (default: the longest window + 1.5 s)');
  addNetworkOptions(cmd)
    .addHelpText('after', `\nExamples:${EXAMPLES}`)
    .action(async (flags: CertifyFlags) => {
      process.exitCode = await runCertify(flags);
    });
}
