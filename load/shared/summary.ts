// The summary every petcert k6 script emits from handleSummary: thresholds, checks and key metrics,
// never the environment (where the API keys are); the text is scrubbed of the keys once more all the
// same. k6 hands handleSummary one of two shapes: the legacy one (default) and, with
// `--new-machine-readable-summary` (k6 ≥ 1.0), a versioned one that lists metrics and checks but has no
// thresholds. Both are read here. The summary goes to stdout as one marked JSON line (SUMMARY_MARKER),
// which petcert collects from k6's output (or `kubectl logs` of a k6-operator runner), and to a file
// only where the script checked it can write one.
import { redactText } from '../../core/redact.ts';

export const SUMMARY_MARKER = 'PETCERT_SUMMARY ';

/** Metric values named as the legacy shape names them: count, rate, passes, fails, avg, p(95), … */
export type MetricValues = Record<string, number>;

interface K6LegacyMetric {
  type?: string;
  values?: MetricValues;
  thresholds?: Record<string, { ok: boolean }>;
}
interface K6Check {
  name: string;
  passes: number;
  fails: number;
}
interface K6Group {
  checks?: K6Check[];
  groups?: K6Group[];
}
/** handleSummary's data in k6's default (legacy) shape. */
export interface K6SummaryData {
  metrics?: Record<string, K6LegacyMetric>;
  root_group?: K6Group;
  state?: { testRunDurationMs?: number };
}

interface K6MachineReadableMetric {
  name: string;
  type?: string;
  values?: MetricValues;
}
/** handleSummary's data with --new-machine-readable-summary (schema version 1.x; field names as k6 hands them to JS). */
export interface K6MachineReadableSummary {
  version: string;
  config?: { duration?: number };
  metadata?: { k6_version?: string };
  results?: {
    checks?: { metrics?: K6MachineReadableMetric[]; results?: K6Check[] };
    metrics?: K6MachineReadableMetric[];
  };
}

export type K6SummaryInput = K6SummaryData | K6MachineReadableSummary;

/** One reading of either shape. `thresholds` is null when the shape does not report them. */
export interface K6Results {
  shape: 'legacy' | 'machine-readable';
  durationMs: number | undefined;
  metrics: Record<string, MetricValues>;
  checks: K6Check[];
  thresholds: Record<string, boolean> | null;
}

const isMachineReadable = (data: K6SummaryInput): data is K6MachineReadableSummary =>
  Array.isArray((data as K6MachineReadableSummary).results?.metrics);

/** The machine-readable shape's values under the legacy names (matches/total → passes/fails, p95 → p(95)). */
function legacyValues(type: string | undefined, values: MetricValues = {}): MetricValues {
  if (type === 'rate' && values.matches !== undefined) {
    const { matches, total = matches, ...rest } = values;
    return { ...rest, passes: matches, fails: total - matches };
  }
  if (type !== 'trend') return { ...values };
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [k.replace(/^p(\d+(?:\.\d+)?)$/, 'p($1)'), v]));
}

function groupChecks(group: K6Group | undefined): K6Check[] {
  if (group === undefined) return [];
  return [...(group.checks ?? []), ...(group.groups ?? []).flatMap(groupChecks)];
}

export function readK6Summary(input: K6SummaryInput): K6Results {
  // k6 hands the machine-readable shape over as wrapped Go values (its `version` is an object with
  // methods such as `validate`); their JSON is plain data.
  const data = JSON.parse(JSON.stringify(input)) as K6SummaryInput;
  if (isMachineReadable(data)) {
    const metrics: Record<string, MetricValues> = {};
    for (const m of [...(data.results?.metrics ?? []), ...(data.results?.checks?.metrics ?? [])])
      metrics[m.name] = legacyValues(m.type, m.values);
    const seconds = data.config?.duration;
    return {
      shape: 'machine-readable',
      durationMs: seconds === undefined ? undefined : seconds * 1000,
      metrics,
      checks: data.results?.checks?.results ?? [],
      thresholds: null,
    };
  }
  const metrics: Record<string, MetricValues> = {};
  const thresholds: Record<string, boolean> = {};
  for (const [name, m] of Object.entries(data.metrics ?? {})) {
    metrics[name] = { ...(m.values ?? {}) };
    for (const [expr, t] of Object.entries(m.thresholds ?? {})) thresholds[`${name}: ${expr}`] = t.ok;
  }
  return {
    shape: 'legacy',
    durationMs: data.state?.testRunDurationMs,
    metrics,
    checks: groupChecks(data.root_group),
    thresholds,
  };
}

export interface PetcertK6Summary {
  tool: 'petcert-k6';
  script: string;
  target: string;
  /** Which shape k6 handed over: `machine-readable` carries no thresholds. */
  k6Summary: K6Results['shape'];
  durationMs: number | undefined;
  /**
   * false: a threshold or check failed, or no request was sent. null: every check passed but k6 did not
   * report its thresholds (machine-readable shape), so k6's exit code is the verdict.
   */
  passed: boolean | null;
  thresholds: Record<string, boolean> | null;
  checks: K6Check[];
  metrics: Record<'http_reqs' | 'http_req_duration' | 'http_req_failed' | 'unexpected_429', MetricValues | undefined>;
}

export function petcertSummary(script: string, target: string, data: K6SummaryInput): PetcertK6Summary {
  const r = readK6Summary(data);
  const checks = r.checks.map((c) => ({ name: c.name, passes: c.passes, fails: c.fails }));
  const sentNothing = !((r.metrics.http_reqs?.count ?? 0) > 0);
  const failed = sentNothing || checks.some((c) => c.fails > 0) || Object.values(r.thresholds ?? {}).some((ok) => !ok);
  const pick = (name: string) => r.metrics[name];
  return {
    tool: 'petcert-k6',
    script,
    target,
    k6Summary: r.shape,
    durationMs: r.durationMs,
    passed: failed ? false : r.thresholds === null ? null : true,
    thresholds: r.thresholds,
    checks,
    metrics: {
      http_reqs: pick('http_reqs'),
      http_req_duration: pick('http_req_duration'),
      http_req_failed: pick('http_req_failed'),
      unexpected_429: pick('unexpected_429'),
    },
  };
}

/** A summary as the file's text (k6-<script>.json), and as one marked line for stdout. */
export const summaryText = (summary: PetcertK6Summary, secrets: readonly string[]): string =>
  redactText(JSON.stringify(summary, null, 2) + '\n', secrets);
export const markedLine = (summary: PetcertK6Summary, secrets: readonly string[]): string =>
  SUMMARY_MARKER + redactText(JSON.stringify(summary), secrets);

/** The summary file's text (k6-<script>.json). */
export function summarize(script: string, target: string, data: K6SummaryInput, secrets: readonly string[]): string {
  return summaryText(petcertSummary(script, target, data), secrets);
}

/** The summary as one marked line for stdout. */
export function summaryLine(script: string, target: string, data: K6SummaryInput, secrets: readonly string[]): string {
  return markedLine(petcertSummary(script, target, data), secrets);
}

/** Every petcert summary in k6's output (a prefix, e.g. the stamp of `kubectl logs --timestamps`, may precede the marker). */
export function collectSummaries(output: string): PetcertK6Summary[] {
  const out: PetcertK6Summary[] = [];
  for (const line of output.split('\n')) {
    const at = line.indexOf(SUMMARY_MARKER);
    if (at < 0) continue;
    try {
      const value = JSON.parse(line.slice(at + SUMMARY_MARKER.length)) as PetcertK6Summary;
      if (value?.tool === 'petcert-k6') out.push(value);
    } catch {
      // a line that merely mentions the marker
    }
  }
  return out;
}
