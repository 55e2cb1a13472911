// `petcert certify`: conformance with each conform key, then the quota probes for every key, folded
// into ONE report. The runners are injected (tests give fixtures; the CLI gives runConform/runQuota).
// Conform runs first: its requests are light, while the quota probes spend whole windows.
import type { Send } from '../core/exchange.ts';
import { productionRefused, type ProductionConsent } from '../spec/production.ts';
import type { ProgressSink } from '../core/progress.ts';
import type { FailOn, Report } from '../report/model.ts';
import type { PlanTable } from '../spec/plans.ts';
import type { ConformKey, KeyedPlan } from './config-file.ts';
import { ConfigError } from '../core/errors.ts';
import { coveringBudget } from '../conformance/run.ts';
import { DEFAULT_BUDGET } from '../conformance/runner/budget.ts';
import type { Journal } from '../load/journal/format.ts';

export interface ConformRun {
  baseUrl: string;
  apiKey: string;
  seed?: number;
  budget?: number;
  failOn?: FailOn;
  progress?: ProgressSink;
  send?: Send;
  /** Longest window of the target, s: the ceiling conform accepts for X-RateLimit-Reset - Date. */
  maxWindowSeconds?: number;
  /** The key's plan and the figures it is judged by (X-RateLimit-Limit ∈ the plan's two figures). */
  plan?: string;
  plans?: PlanTable;
  signal?: AbortSignal;
}

export interface QuotaRun {
  baseUrl: string;
  keys: KeyedPlan[];
  plans: PlanTable;
  allowProduction?: boolean;
  production?: boolean;
  progress?: ProgressSink;
  send?: Send;
  /** Longest single wait of the quota probes (--max-wait). */
  maxWaitMs?: number;
  signal?: AbortSignal;
  /** Given the quota probes' journal once they end (runQuota's `journal`). */
  journal?: (journal: Journal) => void;
}

export interface Runners {
  conform(options: ConformRun): Promise<Report>;
  quota(options: QuotaRun): Promise<Report>;
}

export interface CertifyOptions {
  baseUrl: string;
  production: boolean;
  allowProduction?: boolean;
  conformKeys: ConformKey[];
  quotaKeys: KeyedPlan[];
  plans: PlanTable;
  seed?: number;
  budget?: number;
  /** Where the budget was configured, for the usage error (default --budget; a config file's field otherwise). */
  budgetField?: string;
  failOn?: FailOn;
  progress?: ProgressSink;
  send?: Send;
  version: string;
  now?: () => number;
  /** Longest single wait of the quota probes (--max-wait). */
  maxWaitMs?: number;
  /** SIGINT/SIGTERM: the part running stops early, no later part starts. */
  signal?: AbortSignal;
  /** Given the quota part's journal, its header naming the part, when the quota probes ran. */
  quotaJournal?: (journal: Journal) => void;
}

/**
 * The conformance budget of each key (certify's PASS means every MUST check ran: docs/decisions/001): the
 * least budget whose plan gives every scenario check a run (conformance/runner/budget.ts, from the
 * coverage phase's cost and the checks' weights), or the configured one when it covers them. A
 * configured budget that cannot is a usage error naming the figure, raised before any request.
 */
export function conformBudget(configured: number | undefined, field = '--budget'): number {
  const needed = coveringBudget();
  if (configured === undefined) return Math.max(DEFAULT_BUDGET, needed);
  if (configured < needed) {
    throw new ConfigError(
      `${configured} requests per conform key leave MUST checks of conform unrun; certify needs at least ${needed} (give ${needed} or more, or leave it out)`,
      field,
    );
  }
  return configured;
}

/** One part of a certification and the label its checks and series carry, e.g. "conform[free]". */
export interface Part {
  label: string;
  report: Report;
}

const iso = (ms: number): string => new Date(ms).toISOString();
const earliest = (dates: string[]): string => iso(Math.min(...dates.map(Date.parse)));
const latest = (dates: string[]): string => iso(Math.max(...dates.map(Date.parse)));

/**
 * Folds the parts into one report: check ids and series names are prefixed with the part's label (two
 * conform runs never merge their verdicts), requests are summed, created ids gathered, and the first
 * part that stopped early makes the whole run incomplete.
 */
/** The quota probes spend real quota: on a production target (the contract's, or marked so) only when allowed. */
export function quotaRefused(o: { baseUrl: string } & ProductionConsent): boolean {
  return productionRefused(o.baseUrl, o);
}

export function combineReports(
  parts: readonly Part[],
  meta: { target: string; version: string; startedAt: string; finishedAt: string; plans?: PlanTable },
): Report {
  const report: Report = {
    tool: 'petcert',
    version: meta.version,
    kind: 'certify',
    target: meta.target,
    startedAt: earliest([meta.startedAt, ...parts.map((p) => p.report.startedAt)]),
    finishedAt: latest([meta.finishedAt, ...parts.map((p) => p.report.finishedAt)]),
    seed: parts.find((p) => p.report.seed !== null)?.report.seed ?? null,
    requests: parts.reduce((sum, p) => sum + p.report.requests, 0),
    checks: parts.flatMap((p) => p.report.checks.map((c) => ({ ...c, id: `${p.label}/${c.id}`, part: p.label }))),
  };
  const series = Object.fromEntries(
    parts.flatMap((p) => Object.entries(p.report.series ?? {}).map(([name, s]) => [`${p.label}/${name}`, s])),
  );
  if (Object.keys(series).length) report.series = series;
  const subjects = parts.flatMap((p) =>
    Object.entries(p.report.subjects ?? {}).map(([name, s]) => [`${p.label}/${name}`, { ...s, part: p.label }]),
  );
  if (subjects.length) report.subjects = Object.fromEntries(subjects);
  const created = parts.flatMap((p) => p.report.createdIds ?? []);
  if (created.length) report.createdIds = created;
  const aborted = parts.filter((p) => p.report.aborted);
  if (aborted[0]?.report.aborted) {
    const { code, message } = aborted[0].report.aborted;
    const more =
      aborted.length > 1
        ? ` (and ${aborted.length - 1} more part(s) stopped early: ${aborted
            .slice(1)
            .map((p) => p.label)
            .join(', ')})`
        : '';
    report.aborted = { code, message: `${aborted[0].label}: ${message}${more}` };
  }
  const plans = meta.plans ?? parts.find((p) => p.report.plans)?.report.plans;
  if (plans) report.plans = plans;
  const reading = parts.find((p) => p.report.reading)?.report.reading;
  if (reading) report.reading = reading;
  const over = parts.flatMap((p) => p.report.overAdmitted ?? []);
  if (parts.some((p) => p.report.overAdmitted)) report.overAdmitted = over;
  const k6 = Object.fromEntries(parts.filter((p) => p.report.k6 !== undefined).map((p) => [p.label, p.report.k6]));
  if (Object.keys(k6).length) report.k6 = k6;
  return report;
}

/** Principle 4: on production the quota probes spend real quota, so without --allow-production the
 *  certification is incomplete (exit 3) rather than silently partial. */
function refusedQuota(target: string, version: string, at: string): Report {
  return {
    tool: 'petcert',
    version,
    kind: 'quota',
    target,
    startedAt: at,
    finishedAt: at,
    seed: null,
    requests: 0,
    checks: [],
    aborted: {
      code: 'PRODUCTION_REFUSED',
      message: `${target} is a production target: the quota probes were not run (they spend real quota). Pass --allow-production to run them.`,
    },
  };
}

/** Each conform run's progress phases carry its key's label ("conform[free]: population"). */
function labelled(sink: ProgressSink, label: string): ProgressSink {
  return (event) =>
    sink({
      ...event,
      phase: event.phase.startsWith('conform')
        ? `${label}${event.phase.slice('conform'.length)}`
        : `${label} ${event.phase}`,
    });
}

/** A target that stopped answering ends the certification: the remaining parts could only time out. */
const unreachable = (part: Report): boolean => part.aborted?.code === 'UNREACHABLE';

export async function certify(options: CertifyOptions, runners: Runners): Promise<Report> {
  const budget = conformBudget(options.budget, options.budgetField);
  const now = options.now ?? Date.now;
  const startedAt = iso(now());
  const parts: Part[] = [];
  const common = {
    baseUrl: options.baseUrl,
    ...(options.progress ? { progress: options.progress } : {}),
    ...(options.send ? { send: options.send } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  };
  for (const k of options.conformKeys) {
    const label = `conform[${k.label ?? k.plan}]`;
    const report = await runners.conform({
      ...common,
      ...(options.progress ? { progress: labelled(options.progress, label) } : {}),
      apiKey: k.key,
      ...(options.seed !== undefined ? { seed: options.seed } : {}),
      budget,
      ...(options.failOn ? { failOn: options.failOn } : {}),
      maxWindowSeconds: options.plans.windows.daySeconds,
      ...(k.plan !== undefined ? { plan: k.plan } : {}),
      plans: options.plans,
    });
    parts.push({ label, report });
    if (unreachable(report) || options.signal?.aborted) break;
  }
  if (parts.some((p) => unreachable(p.report)) || options.signal?.aborted) {
    // Nothing more to learn from a dead target; nothing more to start once interrupted.
  } else if (quotaRefused(options)) {
    parts.push({ label: 'quota', report: refusedQuota(options.baseUrl, options.version, iso(now())) });
  } else {
    const report = await runners.quota({
      ...common,
      keys: options.quotaKeys,
      plans: options.plans,
      production: options.production,
      allowProduction: options.allowProduction === true,
      ...(options.maxWaitMs !== undefined ? { maxWaitMs: options.maxWaitMs } : {}),
      ...(options.quotaJournal
        ? { journal: (j: Journal) => options.quotaJournal!({ ...j, header: { ...j.header, part: 'quota' } }) }
        : {}),
    });
    parts.push({ label: 'quota', report });
  }
  return combineReports(parts, {
    target: options.baseUrl,
    version: options.version,
    startedAt,
    finishedAt: iso(now()),
    plans: options.plans,
  });
}
