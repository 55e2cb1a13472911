// `petcert capacity`: will the service hold the planned customer mix? Builds the run from the model
// (load/capacity/), calibrates the generator, runs each step under the real k6 (one process per step,
// so the run stops once two steps broke the SLO), judges, and writes report.json/junit.xml/report.html.
// `--emit-testrun N` writes a k6-operator TestRun instead; `capacity merge FILES…` judges N runners' logs.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { parseBaseUrl } from '../core/base-url.ts';
import { AbortRunError, ConfigError, PetcertError, errorMessage } from '../core/errors.ts';
import { VERSION } from '../core/version.ts';
import type { FailOn, Report } from '../report/model.ts';
import { loadPlansFile } from '../spec/plans-file.ts';
import { refuseProduction } from '../spec/production.ts';
import type { PlanTable } from '../spec/plans.ts';
import { parseKeysFile, type PlanKey } from '../load/capacity/keys-file.ts';
import { mergeResults } from '../load/capacity/merge.ts';
import { buildPlan, canaryStepOf, type CapacityPlan } from '../load/capacity/plan.ts';
import { noCanaryMessage } from '../load/capacity/canary-plan.ts';
import { capacityReport } from '../load/capacity/report.ts';
import type { RunnerResult } from '../load/capacity/result.ts';
import { runInfo } from '../load/capacity/run-info.ts';
import { readSettings, SETTINGS, type CapacitySettings, type SettingsEnv } from '../load/capacity/settings.ts';
import { judgeStep, shouldStop, type Generator } from '../load/capacity/verdict.ts';
import { findK6 } from '../load/k6-binary.ts';
import { CALIBRATION_TIMEOUT_MS, CAPACITY_BOUND_HELP, capacityBound, stepProcessTimeoutMs } from '../load/capacity/bound.ts';
import { formatBound } from '../core/duration.ts';
import { calibrate } from './capacity-calibrate.ts';
import { preflight } from './capacity-preflight.ts';
import { bundleOrError, DEFAULT_BUNDLE, runK6 } from './capacity-k6.ts';
import { registerCapacityMerge } from './capacity-merge.ts';
import { identifyTarget, identityLine, refusedReport } from './identify.ts';
import { interruptible } from './interrupt.ts';
import { writeTestRun } from './capacity-testrun.ts';
import { failOnFlag, integerFlag, type Env } from './flags.ts';
import { ALLOW_INCOMPLETE_HELP, consoleOut, publishRun, sayer, type Out } from './publish.ts';
import { DEFAULT_REPORT_ROOT, REPORT_DIR_HELP } from './report-dirs.ts';

export interface CapacityFlags {
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
}

/** The flags as the settings record the k6 script reads (same names, same parser). */
export function settingsEnv(flags: CapacityFlags): Record<string, string> {
  const env: Record<string, string> = {};
  const put = (k: keyof typeof SETTINGS, v: string | undefined) => {
    if (v !== undefined) env[SETTINGS[k].env] = v;
  };
  put('mix', flags.mix);
  put('utilisation', flags.utilisation);
  put('ops', flags.ops);
  put('stepSeconds', flags.stepSeconds);
  put('steps', flags.steps);
  put('maxFactor', flags.maxFactor);
  put('scaleToKeys', flags.scaleToKeys ? '1' : undefined);
  put('slo', flags.slo);
  put('minHeadroom', flags.minHeadroom);
  put('canaries', flags.canaries ? '1' : '0');
  if (flags.maxVus !== undefined) env.MAX_VUS = String(integerFlag(flags.maxVus, '--max-vus', 1));
  return env;
}

interface Prepared {
  baseUrl: string;
  keysFile: string;
  keys: PlanKey[];
  plans: PlanTable;
  plansFile?: string;
  env: Record<string, string>;
  settings: CapacitySettings;
  plan: CapacityPlan;
}

export function prepare(flags: CapacityFlags, env: Env, parallelism = 1): Prepared {
  if (!flags.baseUrl) throw new ConfigError('is required: the target base URL ending in /v1, e.g. --base-url http://127.0.0.1:8080/v1', '--base-url');
  const baseUrl = parseBaseUrl(flags.baseUrl, '--base-url');
  if (!flags.keysFile) throw new ConfigError('is required: a file of PLAN=KEY lines (petcert serve --key-pool writes one)', '--keys-file');
  if (!flags.mix && !flags.scaleToKeys) throw new ConfigError('is required: customers per plan, e.g. --mix free=2000,pro=300 (or --scale-to-keys to test what the keys carry)', '--mix');
  const keysFile = resolve(flags.keysFile);
  let text: string;
  try {
    text = readFileSync(keysFile, 'utf8');
  } catch (error) {
    throw new ConfigError(`cannot read: ${errorMessage(error)}`, '--keys-file');
  }
  const keys = parseKeysFile(text, flags.keysFile, env);
  const plans = loadPlansFile(flags.plans);
  const settingsRecord = settingsEnv(flags);
  const settings = readSettings(settingsRecord as SettingsEnv, plans);
  const plan = buildPlan(settings, plans, keys, parallelism);
  if (plan.canaryNeed !== null) throw new ConfigError(noCanaryMessage(canaryStepOf(plan, settings), plan.canaryNeed), '--keys-file');
  return { baseUrl, keysFile, keys, plans, ...(flags.plans ? { plansFile: resolve(flags.plans) } : {}), env: settingsRecord, settings, plan };
}

function describePlan(p: Prepared): string[] {
  const rate = (r: number) => `${Math.round(r * 10) / 10} req/s`;
  const lines = [`planned rate ${rate(p.plan.plannedRate)} (${Object.entries(p.plan.perPlanPlanned).map(([n, r]) => `${n} ${rate(r)}`).join(', ')})`];
  lines.push(`steps: ${p.plan.steps.map((s) => rate(s.offeredRate)).join(' → ')}, ${p.settings.stepSeconds} s each${p.plan.scale < 1 ? ` (scaled to the keys: ${Math.round(p.plan.scale * 1000) / 10} % of the schedule)` : ''}`);
  lines.push(`keys: ${Object.entries(p.plan.load).map(([n, ks]) => `${ks.length} ${n}`).join(', ')} carrying load; ${p.plan.canaries.length} canar${p.plan.canaries.length === 1 ? 'y' : 'ies'} (step ${p.plan.canaryStep + 1})`);
  return [...lines, ...p.plan.notes];
}

async function runSteps(p: Prepared, k6: string, script: string, generator: Generator, say: (l: string) => void, signal: AbortSignal): Promise<RunnerResult[]> {
  const base = { k6, script, secrets: p.keys.map((k) => k.key), timeoutMs: stepProcessTimeoutMs(p.settings.stepSeconds), signal };
  const env = { ...p.env, BASE_URL: p.baseUrl, KEYS_FILE: p.keysFile, ...(p.plansFile ? { PLANS_FILE: p.plansFile } : {}) };
  const results: RunnerResult[] = [];
  const judged = [];
  for (const step of p.plan.steps) {
    if (signal.aborted) break;
    const run = await runK6({ ...base, env: { ...env, STEP: String(step.index) } }).catch(interrupted);
    if (!run) break; // interrupted: the step k6 was stopped in is not judged
    const { result } = run;
    results.push(result);
    const j = judgeStep(mergeResults([result]).steps[0]!, p.settings.slo, generator);
    judged.push(j);
    say(`  step ${step.index + 1}/${p.plan.steps.length}: offered ${j.offeredRate} req/s, achieved ${j.achievedRate}, p95 ${j.p95Ms?.toFixed(1)} ms, p99 ${j.p99Ms?.toFixed(1)} ms, errors ${(j.errorRate * 100).toFixed(2)} %, dropped ${j.droppedIterations}, 429 below quota ${j.below_quota_429} → ${j.verdict}${j.breaches.length ? ` (${j.breaches.join('; ')})` : ''}`);
    if (shouldStop(judged)) break;
  }
  return results;
}

/** A k6 process stopped by petcert's own interrupt ends the steps; anything else is rethrown. */
function interrupted(error: unknown): undefined {
  if (error instanceof AbortRunError && error.reason === 'INTERRUPTED') return undefined;
  throw error;
}

/** Run-level checks need every step: interrupted, a pass on the steps done is not proven (a failure seen stays). */
function unprovenPasses(report: Report, done: number, total: number): Report {
  const why = `not judged: the run was interrupted after ${done} of ${total} steps`;
  const checks = report.checks.map((c) => (c.outcome === 'pass' ? { ...c, outcome: 'skip' as const, skipKind: 'unjudged' as const, skipReason: why } : c));
  return { ...report, checks };
}

/** One runner's steps, one k6 process each, as if one runner had run them all. */
function asOneRunner(results: RunnerResult[]): RunnerResult {
  return { ...results[0]!, steps: results.flatMap((r) => r.steps), canaries: results.flatMap((r) => r.canaries) };
}

export async function capacityAction(flags: CapacityFlags, out: Out = consoleOut, env: Env = process.env): Promise<number> {
  const failOn = failOnFlag(flags.failOn);
  const say = sayer(out, flags.json);
  if (flags.emitTestrun !== undefined) {
    const n = integerFlag(flags.emitTestrun, '--emit-testrun', 1)!;
    const p = prepare(flags, env, n);
    const path = writeTestRun(p, n, flags.testrunOut ?? `${flags.reportDir}/capacity-testrun.yaml`);
    for (const line of [`TestRun for ${n} runners written to ${path}`, ...describePlan(p), 'Then: see the comments at the top of the file (kubectl create configmap/secret, kubectl apply), and', `  kubectl logs -l k6_cr=petcert-capacity --tail=-1 > runners.log && petcert capacity merge runners.log`]) say(line);
    return 0;
  }
  const p = prepare(flags, env);
  refuseProduction(p.baseUrl, { allowProduction: flags.allowProduction }, 'a capacity run loads it and spends real quota');
  const k6 = findK6(env);
  const script = bundleOrError(flags.script ?? DEFAULT_BUNDLE);
  for (const line of describePlan(p)) say(line);
  const bound = capacityBound({ steps: p.plan.steps.length, stepSeconds: p.settings.stepSeconds, calibrate: flags.calibrate });
  say(`Worst case: this run ends within ${formatBound(bound.totalMs)} (${bound.parts.join('; ')})`);
  const firstKey = Object.values(p.plan.load).flat()[0]!;
  const secrets = p.keys.map((k) => k.key);
  const identified = await identifyTarget({ baseUrl: p.baseUrl, key: firstKey, field: '--base-url' });
  say(identityLine(p.baseUrl, identified));
  if (identified.refusal) return finish(refusedReport('capacity', p.baseUrl, identified), flags, failOn, secrets, out);
  await preflight(p.baseUrl, firstKey);
  const startedAt = new Date().toISOString();
  const run = async (signal: AbortSignal): Promise<Report> => {
    const top = p.plan.steps[p.plan.steps.length - 1]!;
    const base = { k6, script, secrets, timeoutMs: CALIBRATION_TIMEOUT_MS, signal, env: { ...p.env, KEYS_FILE: p.keysFile, ...(p.plansFile ? { PLANS_FILE: p.plansFile } : {}) } };
    const calibrated = flags.calibrate ? await calibrate(base, top.index, Math.min(p.settings.stepSeconds, 5)).catch(interrupted) : undefined;
    const generator: Generator = calibrated ?? { limit: null, atLeast: false };
    if (generator.limit !== null) say(`generator: ${Math.round(generator.limit)} req/s against a trivial local target at ${Math.round(top.offeredRate)} offered${generator.atLeast ? ' (kept up: the limit is higher)' : ' (saturated: steps above it are generator-bound)'}`);
    const results = signal.aborted ? [] : await runSteps(p, k6, script, generator, say, signal);
    const finishedAt = new Date().toISOString();
    if (results.length === 0) {
      // Interrupted before a step finished: nothing judged, the report says so (cli/interrupt.ts marks it).
      return { tool: 'petcert', version: VERSION, kind: 'capacity', target: p.baseUrl, startedAt, finishedAt, seed: null, requests: 0, checks: [] };
    }
    const merged = mergeResults([asOneRunner(results)]);
    const extra = { mix: p.plan.perPlanPlanned, keys: Object.fromEntries(Object.entries(p.plan.load).map(([n, ks]) => [n, ks.length])), notes: p.plan.notes };
    const report = capacityReport({ version: VERSION, run: runInfo(p.baseUrl, p.settings, p.plan), merged, generator, startedAt, finishedAt, plans: p.plans, extra });
    return signal.aborted ? unprovenPasses(report, results.length, p.plan.steps.length) : report;
  };
  try {
    return await interruptible(out.err, run, (report) => finish(report, flags, failOn, secrets, out));
  } catch (error) {
    if (error instanceof PetcertError && error.code === 'K6_FAILED') {
      out.err(`petcert: ${error.message}`);
      return 3;
    }
    throw error;
  }
}

/** Capacity's verdict sentence, then what every command prints (publish.ts). */
export function finish(report: Report, flags: { reportDir: string; json?: boolean; allowIncomplete?: boolean }, failOn: FailOn, secrets: readonly string[], out: Out): number {
  const before = report.capacity ? [report.capacity.summary] : [];
  return publishRun(report, { reportDir: flags.reportDir, json: flags.json, failOn, secrets, out, before, allowIncomplete: flags.allowIncomplete });
}

const EXAMPLES = `
Examples:
  # a reference server with a realistic key pool, then the question "does it hold this mix?"
  petcert serve --port 8080 --key-pool free=500,pro=60,business=5 --key-pool-file keys.txt
  petcert capacity --base-url http://127.0.0.1:8080/v1 --keys-file keys.txt --mix free=200,pro=25,business=2

  # a quick look: 3-second steps, half the customers active, the largest rate the keys carry
  petcert capacity --base-url http://127.0.0.1:8080/v1 --keys-file keys.txt --mix free=2000 --utilisation 0.5 \\
    --step-seconds 3 --scale-to-keys

  # beyond one machine: a k6-operator TestRun with 4 runners (2,000 customers at a tenth of their quota
  # fit the key pool above), then one verdict from their logs
  petcert capacity --base-url https://staging.example.com/v1 --keys-file keys.txt --mix free=2000,pro=250 --utilisation 0.1 --emit-testrun 4
  petcert capacity merge runner-*.log

The model: planned rate = Σ customers × perMinute × utilisation / minute (figures from the plans file).
Steps go from 25 % to --max-factor × planned; every key carries at most 90 % of its quota, so a 429
below quota is the service's. SLO default: ${SETTINGS.slo.default}. PASS when sustained / planned ≥ --min-headroom.
Needs k6: \`npm run k6:build\` (pinned versions), or K6=/path/to/k6, or k6 on PATH; and \`npm run build\`.
Exit codes: 0 pass · 1 a MUST check failed (headroom, quota under load) · 2 usage/config (e.g. not enough
keys: the message says how many more of which plan) · 3 unreachable, k6 failed, or generator/keys-bound
· 4 INCOMPLETE: a MUST check (e.g. a canary's) could not be judged (--allow-incomplete makes this 0).`;

export function registerCapacity(program: Command): void {
  const cmd = program
    .command('capacity')
    .description('Will the service hold the planned customer mix? Step load under the real k6, knee, headroom, quota under load')
    .option('--base-url <url>', 'target base URL ending in /v1')
    .option('--keys-file <file>', 'PLAN=KEY per line (# comments; KEY may be env:NAME)')
    .option('--plans <file>', 'plans file (figures and window lengths; default: the specification\'s)')
    .option('--mix <plan=n,...>', 'active customers per plan, e.g. free=2000,pro=300,business=20')
    .option('--utilisation <u>', `share of its per-minute quota a customer uses at peak, (0, 1] (default ${SETTINGS.utilisation.default})`)
    .option('--ops <op=w,...>', `operation mix (default ${SETTINGS.ops.default})`)
    .option('--step-seconds <s>', `how long each step holds (default ${SETTINGS.stepSeconds.default})`)
    .option('--steps <n>', `number of steps (default ${SETTINGS.steps.default})`)
    .option('--max-factor <f>', `top step as a multiple of the planned rate (default ${SETTINGS.maxFactor.default})`)
    .option('--scale-to-keys', 'when the keys cannot carry the schedule, test the largest rate they carry (and say so)')
    .option('--slo <terms>', `per-step objective (default ${SETTINGS.slo.default})`)
    .option('--min-headroom <h>', `PASS when sustained / planned ≥ h (default ${SETTINGS.minHeadroom.default})`)
    .option('--no-canaries', 'do not drive one spare key per plan past its quota during the planned-rate step')
    .option('--no-calibrate', 'skip measuring the generator against a trivial local target')
    .option('--report-dir <dir>', REPORT_DIR_HELP, DEFAULT_REPORT_ROOT)
    .option('--fail-on <level>', 'must: only MUST failures fail the run; should: SHOULD findings too', 'must')
    .option('--json', 'print report.json to stdout (human output goes to stderr)')
    .option('--allow-production', 'allow a capacity run against a production URL')
    .option('--allow-incomplete', ALLOW_INCOMPLETE_HELP)
    .option('--script <file>', 'the capacity k6 bundle (default load/dist/capacity.js)')
    .option('--max-vus <n>', 'k6 VUs per scenario at most (default 1000): bounds the generator\'s memory')
    .option('--emit-testrun <n>', 'write a k6-operator TestRun with n runners instead of running')
    .option('--testrun-out <file>', 'where --emit-testrun writes (default <report-dir>/capacity-testrun.yaml)')
    .addHelpText('after', `${EXAMPLES}\n${CAPACITY_BOUND_HELP}`)
    .action(async (flags: CapacityFlags) => {
      process.exitCode = await capacityAction(flags);
    });
  registerCapacityMerge(cmd);
}
