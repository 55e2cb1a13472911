// `petcert capacity`: flags and wiring. The engine is load/capacity/ (prepare.ts → run.ts runCapacity);
// `--emit-testrun N` writes a k6-operator TestRun instead (load/capacity/testrun.ts); `capacity merge`
// judges N runners' logs (capacity-merge.ts).
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import type { Report } from '../report/model.ts';
import { parseBaseUrl } from '../core/base-url.ts';
import { ConfigError, errorMessage } from '../core/errors.ts';
import { formatBound } from '../core/duration.ts';
import { VERSION } from '../core/version.ts';
import { refuseProduction } from '../spec/production.ts';
import { capacityBound } from '../load/capacity/bound.ts';
import { DEFAULT_MAX_VUS } from '../load/capacity/document.ts';
import { bundleOrError } from '../load/capacity/k6-run.ts';
import { planLines, prepareCapacity, type Prepared } from '../load/capacity/prepare.ts';
import { isK6Failure, runCapacity } from '../load/capacity/run.ts';
import { SETTINGS } from '../load/capacity/settings.ts';
import { testRunCommands, testRunNetwork, testRunWarnings, writeTestRun } from '../load/capacity/testrun.ts';
import { findK6 } from '../load/k6-binary.ts';
import { CAPACITY_HELP } from './capacity-help.ts';
import { publishCapacity, registerCapacityMerge } from './capacity-merge.ts';
import { failOnFlag, integerFlag, type Env } from './flags.ts';
import { identifyTarget, identityLine, refusedReport } from './identify.ts';
import { interruptible } from './interrupt.ts';
import { addNetworkOptions, networkOf, sayNetwork, stampNetwork, type NetworkCliFlags } from './network-flags.ts';
import { ALLOW_INCOMPLETE_HELP, consoleOut, sayer, type Out } from './publish.ts';
import { DEFAULT_REPORT_ROOT, REPORT_DIR_HELP } from './report-dirs.ts';

/** The bundle beside the CLI (dist/petcert.js and cli/ both sit one folder below load/dist). */
const DEFAULT_BUNDLE = fileURLToPath(new URL('../load/dist/capacity.js', import.meta.url));

export interface CapacityFlags extends NetworkCliFlags {
  baseUrl?: string;
  keysFile?: string;
  plans?: string;
  mix?: string;
  utilisation?: string;
  ops?: string;
  stepSeconds?: string;
  steps?: string;
  maxFactor?: string;
  scaleToKeys?: boolean;
  slo?: string;
  minHeadroom?: string;
  canaries: boolean;
  calibrate: boolean;
  reportDir: string;
  failOn: string;
  json?: boolean;
  allowProduction?: boolean;
  allowIncomplete?: boolean;
  script?: string;
  maxVus?: string;
  emitTestrun?: string;
  testrunOut?: string;
  out?: string[];
}

/** The flags under the settings' names (settings.ts): parsed once, and a TestRun's env as they are. */
export function settingsEnv(f: CapacityFlags): Record<string, string> {
  const named = {
    mix: f.mix,
    utilisation: f.utilisation,
    ops: f.ops,
    stepSeconds: f.stepSeconds,
    steps: f.steps,
    maxFactor: f.maxFactor,
    scaleToKeys: f.scaleToKeys ? '1' : undefined,
    slo: f.slo,
    minHeadroom: f.minHeadroom,
    canaries: f.canaries ? '1' : '0',
  };
  const entries = Object.entries(named).filter((e): e is [keyof typeof SETTINGS, string] => e[1] !== undefined);
  return Object.fromEntries(entries.map(([k, v]) => [SETTINGS[k].env, v]));
}

export function prepare(f: CapacityFlags, env: Env): Prepared {
  if (!f.baseUrl)
    throw new ConfigError(
      'is required: the target base URL ending in /v1, e.g. --base-url http://127.0.0.1:8080/v1',
      '--base-url',
    );
  if (!f.keysFile)
    throw new ConfigError('is required: a file of PLAN=KEY lines (petcert serve --key-pool writes one)', '--keys-file');
  if (!f.mix && !f.scaleToKeys)
    throw new ConfigError(
      'is required: customers per plan, e.g. --mix free=2000,pro=300 (or --scale-to-keys to test what the keys carry)',
      '--mix',
    );
  const baseUrl = parseBaseUrl(f.baseUrl, '--base-url');
  return prepareCapacity({ baseUrl, keysFile: f.keysFile, plansFile: f.plans, settings: settingsEnv(f), env });
}

function emitTestRun(f: CapacityFlags, env: Env, say: (line: string) => void): number {
  const n = integerFlag(f.emitTestrun, '--emit-testrun', 1)!;
  const p = prepare(f, env);
  // Resolved as a local run resolves it (files read and checked), so a bad --ca-file is exit 2 here, not in the cluster.
  const network = networkOf(f, env);
  const input = { ...p, env: settingsEnv(f), network: testRunNetwork(network, env) };
  const path = writeTestRun(input, n, f.testrunOut ?? `${f.reportDir}/capacity-testrun.yaml`);
  const then = 'Then, in the cluster (the same lines are at the top of the file):';
  for (const line of [`TestRun for ${n} runners written to ${path}`, ...planLines(p)]) say(line);
  // The runners' --insecure is said once, in the present tense (testRunWarnings): the run is still to come.
  sayNetwork({ ...network, tls: { ...network.tls, insecure: false } }, p.baseUrl, say);
  for (const line of [...testRunWarnings(input), then, ...testRunCommands(input, path).map((c) => `  ${c}`)]) say(line);
  return 0;
}

export async function capacityAction(f: CapacityFlags, out: Out = consoleOut, env: Env = process.env): Promise<number> {
  const say = sayer(out, f.json);
  failOnFlag(f.failOn); // a bad --fail-on is a usage error before any load
  if (f.emitTestrun !== undefined) return emitTestRun(f, env, say);
  const p = prepare(f, env);
  refuseProduction(p.baseUrl, { allowProduction: f.allowProduction }, 'a capacity run loads it and spends real quota');
  const network = networkOf(f, env);
  const run = {
    prepared: p,
    k6: findK6(env),
    script: bundleOrError(f.script ?? DEFAULT_BUNDLE),
    calibrate: f.calibrate,
    maxVus: integerFlag(f.maxVus, '--max-vus', 1) ?? DEFAULT_MAX_VUS,
    outputs: f.out,
    version: VERSION,
    say,
    network,
    logDir: f.reportDir,
  };
  for (const line of planLines(p)) say(line);
  sayNetwork(network, p.baseUrl, say);
  const bound = capacityBound({
    steps: p.plan.steps.length,
    stepSeconds: p.settings.stepSeconds,
    calibrate: f.calibrate,
  });
  say(`Worst case: this run ends within ${formatBound(bound.totalMs)} (${bound.parts.join('; ')})`);
  const secrets = p.keys.map((k) => k.key);
  const identified = await identifyTarget({
    baseUrl: p.baseUrl,
    key: Object.values(p.plan.load).flat()[0]!,
    field: '--base-url',
    network,
  });
  say(identityLine(p.baseUrl, identified));
  const publish = (report: Report) => publishCapacity(stampNetwork(report, network, p.baseUrl), f, secrets, out);
  if (identified.refusal) return publish(refusedReport('capacity', p.baseUrl, identified));
  try {
    return await interruptible(out.err, (interrupt) => runCapacity({ ...run, interrupt }), publish);
  } catch (error) {
    if (!isK6Failure(error)) throw error;
    out.err(`petcert: ${errorMessage(error)}`);
    return 3;
  }
}

const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

export function registerCapacity(program: Command): void {
  const cmd = program
    .command('capacity')
    .description(
      'Will the service hold the planned customer mix? Step load under the real k6, knee, headroom, quota under load',
    )
    .option('--base-url <url>', 'target base URL ending in /v1')
    .option('--keys-file <file>', 'PLAN=KEY per line (# comments; KEY may be env:NAME)')
    .option('--plans <file>', "plans file (figures and window lengths; default: the specification's)")
    .option('--mix <plan=n,...>', 'active customers per plan, e.g. free=2000,pro=300,business=20')
    .option(
      '--utilisation <u>',
      `share of its per-minute quota a customer uses at peak, (0, 1] (default ${SETTINGS.utilisation.default})`,
    )
    .option('--ops <op=w,...>', `operation mix (default ${SETTINGS.ops.default})`)
    .option('--step-seconds <s>', `how long each step holds (default ${SETTINGS.stepSeconds.default})`)
    .option('--steps <n>', `number of steps (default ${SETTINGS.steps.default})`)
    .option('--max-factor <f>', `top step as a multiple of the planned rate (default ${SETTINGS.maxFactor.default})`)
    .option('--scale-to-keys', 'when the keys cannot carry the schedule, test the largest rate they carry (and say so)')
    .option('--slo <terms>', `per-step objective (default ${SETTINGS.slo.default})`)
    .option('--min-headroom <h>', `PASS when sustained / planned ≥ h (default ${SETTINGS.minHeadroom.default})`)
    .option('--no-canaries', 'no spare key driven past its quota: quota under load is then not judged (never a PASS)')
    .option('--no-calibrate', 'skip measuring the generator against a trivial local target')
    .option('--report-dir <dir>', REPORT_DIR_HELP, DEFAULT_REPORT_ROOT)
    .option('--fail-on <level>', 'must: only MUST failures fail the run; should: SHOULD findings too', 'must')
    .option('--json', 'print report.json to stdout (human output goes to stderr)')
    .option('--allow-production', 'allow a capacity run against a production URL')
    .option('--allow-incomplete', ALLOW_INCOMPLETE_HELP)
    .option('--script <file>', 'the capacity k6 bundle (default load/dist/capacity.js)')
    .option('--max-vus <n>', `k6 VUs per scenario at most (default ${DEFAULT_MAX_VUS}): bounds the generator's memory`)
    .option(
      '--out <output>',
      'a k6 output for every step (repeatable), e.g. json=k6.json (one file per step), experimental-prometheus-rw',
      collect,
    )
    .option('--emit-testrun <n>', 'write a k6-operator TestRun with n runners instead of running')
    .option('--testrun-out <file>', 'where --emit-testrun writes (default <report-dir>/capacity-testrun.yaml)');
  addNetworkOptions(cmd)
    .addHelpText('after', CAPACITY_HELP)
    .action(async (flags: CapacityFlags) => {
      process.exitCode = await capacityAction(flags);
    });
  registerCapacityMerge(cmd);
}
