// The JSON summary every k6 script writes into reports/: thresholds and checks, never the environment
// (where the API keys are); the text is scrubbed of the keys once more all the same.
import { redactText } from '../../core/redact.ts';

interface K6Metric {
  type?: string;
  values?: Record<string, number>;
  thresholds?: Record<string, { ok: boolean }>;
}
interface K6Group {
  checks?: Array<{ name: string; passes: number; fails: number }>;
  groups?: K6Group[];
}
export interface K6SummaryData {
  metrics?: Record<string, K6Metric>;
  root_group?: K6Group;
  state?: { testRunDurationMs?: number };
}

export function summarize(script: string, target: string, data: K6SummaryData, secrets: readonly string[]): string {
  const metrics = data.metrics ?? {};
  const thresholds: Record<string, boolean> = {};
  for (const [name, m] of Object.entries(metrics)) for (const [expr, t] of Object.entries(m.thresholds ?? {})) thresholds[`${name}: ${expr}`] = t.ok;
  const checks = (data.root_group?.checks ?? []).map((c) => ({ name: c.name, passes: c.passes, fails: c.fails }));
  const pick = (name: string) => metrics[name]?.values;
  const summary = {
    tool: 'petcert-k6',
    script,
    target,
    durationMs: data.state?.testRunDurationMs,
    passed: Object.values(thresholds).every(Boolean) && checks.every((c) => c.fails === 0),
    thresholds,
    checks,
    metrics: { http_reqs: pick('http_reqs'), http_req_duration: pick('http_req_duration'), http_req_failed: pick('http_req_failed'), unexpected_429: pick('unexpected_429') },
  };
  return redactText(JSON.stringify(summary, null, 2) + '\n', secrets);
}
