// k6 summary figures (handleSummary's `data`: metrics → { type, values, thresholds }). report.k6 may
// hold one summary or several keyed by script name; anything else is shown as JSON rather than lost.
import { escapeHtml as esc, clip, prettyJson } from './html-escape.ts';

type Metric = {
  type?: unknown;
  contains?: unknown;
  values?: Record<string, unknown>;
  thresholds?: Record<string, { ok?: unknown }>;
};
type Summary = { metrics: Record<string, Metric>; state?: { testRunDurationMs?: unknown } };

function isSummary(value: unknown): value is Summary {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { metrics?: unknown }).metrics === 'object' &&
    (value as { metrics?: unknown }).metrics !== null
  );
}

function figure(value: unknown, contains: unknown): string {
  if (typeof value !== 'number') return esc(String(value));
  const rounded = Number.isInteger(value) ? String(value) : value.toFixed(2);
  return contains === 'time' ? `${rounded} ms` : rounded;
}

function thresholds(metric: Metric): string {
  return Object.entries(metric.thresholds ?? {})
    .map(
      ([rule, result]) =>
        `<span class="${result?.ok === false ? 'fail' : 'pass'}">${esc(rule)} ${result?.ok === false ? '✗' : '✓'}</span>`,
    )
    .join(' ');
}

function summaryTable(name: string, summary: Summary): string {
  const rows = Object.entries(summary.metrics).map(([metric, m]) => {
    const values = Object.entries(m.values ?? {})
      .map(([k, v]) => `${esc(k)}=${figure(v, m.contains)}`)
      .join(' · ');
    return `<tr><td><code>${esc(metric)}</code></td><td>${esc(String(m.type ?? ''))}</td><td>${values}</td><td>${thresholds(m)}</td></tr>`;
  });
  const ms = summary.state?.testRunDurationMs;
  const duration = typeof ms === 'number' ? ` (${(ms / 1000).toFixed(1)} s)` : '';
  return (
    `<h3>${esc(name)}${duration}</h3><table class="checks k6"><thead><tr><th>Metric</th><th>Type</th><th>Values</th><th>Thresholds</th>` +
    `</tr></thead><tbody>${rows.join('\n')}</tbody></table>`
  );
}

export function k6Section(k6: unknown): string {
  if (k6 === undefined || k6 === null) return '';
  let body: string;
  if (isSummary(k6)) body = summaryTable('k6 summary', k6);
  else if (typeof k6 === 'object' && Object.values(k6).length > 0 && Object.values(k6).every(isSummary)) {
    body = Object.entries(k6 as Record<string, Summary>)
      .map(([name, s]) => summaryTable(name, s))
      .join('\n');
  } else body = `<pre>${esc(clip(prettyJson(k6)))}</pre>`;
  return `<section id="k6"><h2>k6 load run</h2>${body}</section>`;
}
