// What a k6 run would collect, recorded by the shim: check results by name, metric samples by name,
// console output; and the summary object k6 hands to handleSummary, built from them. Thresholds are
// evaluated with k6's syntax ("p(95)<500", "rate==1", "count==0") so a threshold on a metric the
// script never defines, or with an aggregation its type lacks, is an error here as it is under k6.
import type { K6SummaryData } from '../../../load/shared/summary.ts';

export type MetricType = 'counter' | 'trend' | 'rate' | 'gauge';

export const BUILTIN_METRICS: Record<string, MetricType> = {
  checks: 'rate',
  http_reqs: 'counter',
  http_req_duration: 'trend',
  http_req_failed: 'rate',
  iterations: 'counter',
  iteration_duration: 'trend',
};

export interface Recorder {
  checks: Map<string, { passes: number; fails: number }>;
  types: Map<string, MetricType>;
  samples: Map<string, number[]>;
  logs: Array<{ level: string; text: string }>;
  /** Every request the scripts sent: method, URL, Authorization (for the key-split test). */
  requests: Array<{ method: string; url: string; authorization: string | undefined; status: number }>;
}

export function createRecorder(): Recorder {
  return { checks: new Map(), types: new Map(Object.entries(BUILTIN_METRICS)), samples: new Map(), logs: [], requests: [] };
}

export function addSample(rec: Recorder, name: string, value: number): void {
  if (!rec.types.has(name)) throw new Error(`metric ${name} was never defined`);
  const list = rec.samples.get(name) ?? [];
  list.push(value);
  rec.samples.set(name, list);
}

export function recordCheck(rec: Recorder, name: string, ok: boolean): void {
  const c = rec.checks.get(name) ?? { passes: 0, fails: 0 };
  if (ok) c.passes++;
  else c.fails++;
  rec.checks.set(name, c);
  addSample(rec, 'checks', ok ? 1 : 0);
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  const rank = (p / 100) * (sorted.length - 1);
  const lo = Math.floor(rank);
  return sorted[lo]! + (sorted[Math.min(lo + 1, sorted.length - 1)]! - sorted[lo]!) * (rank - lo);
}

function valuesOf(type: MetricType, xs: number[], durationS: number): Record<string, number> {
  const sum = xs.reduce((a, b) => a + b, 0);
  if (type === 'counter') return { count: sum, rate: durationS > 0 ? sum / durationS : 0 };
  if (type === 'rate') return { rate: xs.length ? sum / xs.length : 0, passes: sum, fails: xs.length - sum };
  if (type === 'gauge') return { value: xs.at(-1) ?? 0, min: Math.min(...xs, 0), max: Math.max(...xs, 0) };
  const s = [...xs].sort((a, b) => a - b);
  return { avg: xs.length ? sum / xs.length : 0, min: s[0] ?? 0, med: percentile(s, 50), max: s.at(-1) ?? 0, 'p(90)': percentile(s, 90), 'p(95)': percentile(s, 95), 'p(99)': percentile(s, 99) };
}

const THRESHOLD = /^\s*(count|rate|value|avg|min|max|med|p\((\d+(?:\.\d+)?)\))\s*(<=|>=|==|===|!=|<|>)\s*(-?\d+(?:\.\d+)?)\s*$/;
const AGGREGATIONS: Record<MetricType, RegExp> = { counter: /^(count|rate)$/, rate: /^rate$/, gauge: /^(value|min|max)$/, trend: /^(avg|min|max|med|p\()/ };

export function evaluateThreshold(type: MetricType, values: Record<string, number>, expression: string, sorted: number[]): boolean {
  const m = THRESHOLD.exec(expression);
  if (!m) throw new Error(`threshold ${JSON.stringify(expression)} is not k6 threshold syntax`);
  const [, agg, p, op, bound] = m as unknown as [string, string, string | undefined, string, string];
  if (!AGGREGATIONS[type].test(agg)) throw new Error(`threshold ${JSON.stringify(expression)}: a ${type} metric has no ${agg}`);
  const actual = p !== undefined ? percentile(sorted, Number(p)) : values[agg]!;
  const b = Number(bound);
  return { '<': actual < b, '<=': actual <= b, '>': actual > b, '>=': actual >= b, '==': actual === b, '===': actual === b, '!=': actual !== b }[op]!;
}

type Thresholds = Record<string, Array<string | { threshold: string }>>;

/** The `data` argument of handleSummary, in the shape k6 documents (metrics, root_group, state). */
export function summaryData(rec: Recorder, thresholds: Thresholds, durationMs: number): K6SummaryData {
  const metrics: NonNullable<K6SummaryData['metrics']> = {};
  for (const [name, type] of rec.types) {
    const xs = rec.samples.get(name) ?? [];
    if (xs.length === 0 && !(name in thresholds)) continue; // k6 leaves out metrics without samples
    metrics[name] = { type, values: valuesOf(type, xs, durationMs / 1000) };
  }
  for (const [name, list] of Object.entries(thresholds)) {
    const type = rec.types.get(name.replace(/\{.*\}$/, ''));
    if (!type) throw new Error(`threshold on metric ${name}, which the script never defines`);
    const xs = [...(rec.samples.get(name) ?? [])].sort((a, b) => a - b);
    const m = (metrics[name] ??= { type, values: valuesOf(type, xs, durationMs / 1000) });
    m.thresholds = Object.fromEntries(list.map((t) => typeof t === 'string' ? t : t.threshold).map((t) => [t, { ok: evaluateThreshold(type, m.values!, t, xs) }]));
  }
  const checks = [...rec.checks].map(([name, c]) => ({ name, passes: c.passes, fails: c.fails }));
  return { metrics, root_group: { checks, groups: [] }, state: { testRunDurationMs: durationMs } };
}
