// The capacity section of report.html: the verdict's figures, then plots against the offered rate —
// latency percentiles (log scale) with the SLO lines, error rate with its SLO line, achieved against
// offered — each with the planned rate and the knee (last sustained step → breaking step) marked, and
// the steps and canaries as tables. Inline SVG with presentation attributes: no script, no network.
import type { CapacityStep, CapacityVerdict } from './capacity.ts';
import { escapeHtml as esc } from './html-escape.ts';

const W = 720;
const H = 260;
const M = { left: 60, right: 110, top: 16, bottom: 40 };
const COLOURS = {
  p50: '#93c5fd',
  p95: '#2563eb',
  p99: '#1e3a8a',
  slo: '#dc2626',
  planned: '#6b7280',
  knee: '#f59e0b',
  ok: '#16a34a',
  slo_step: '#dc2626',
  generator: '#b76e00',
  achieved: '#2563eb',
} as const;
const VERDICT_COLOUR: Record<CapacityStep['verdict'], string> = {
  ok: COLOURS.ok,
  slo: COLOURS.slo_step,
  generator: COLOURS.generator,
};

type Scale = (v: number) => number;
const num = (v: number): string => (Math.round(v * 10) / 10).toString();
const fmt = (v: number | null, digits = 1): string =>
  v === null ? '—' : Number.isInteger(v) ? String(v) : v.toFixed(digits);

interface Frame {
  x: Scale;
  y: Scale;
  xMax: number;
}

function xFrame(c: CapacityVerdict): { x: Scale; xMax: number } {
  const xMax = Math.max(c.plannedRate, ...c.steps.map((s) => s.offeredRate)) * 1.08 || 1;
  return { x: (v) => M.left + (v / xMax) * (W - M.left - M.right), xMax };
}

function xAxis(f: Frame): string {
  const ticks = [0, 0.25, 0.5, 0.75, 1].map((t) => t * f.xMax);
  return (
    ticks
      .map((t) => `<text x="${num(f.x(t))}" y="${H - M.bottom + 14}" text-anchor="middle">${fmt(t, 0)}</text>`)
      .join('') +
    `<text x="${num((M.left + W - M.right) / 2)}" y="${H - 6}" text-anchor="middle">offered rate (requests/s)</text>`
  );
}

function yLabel(text: string): string {
  return `<text transform="translate(14,${num((M.top + H - M.bottom) / 2)}) rotate(-90)" text-anchor="middle">${esc(text)}</text>`;
}

function hLine(f: Frame, v: number, colour: string, label: string): string {
  const y = num(f.y(v));
  return (
    `<line x1="${M.left}" x2="${W - M.right}" y1="${y}" y2="${y}" stroke="${colour}" stroke-width="1.5" stroke-dasharray="6 3">` +
    `<title>${esc(label)}</title></line><text x="${W - M.right + 4}" y="${num(f.y(v) + 4)}" fill="${colour}">${esc(label)}</text>`
  );
}

/** The planned rate (grey, dashed) and the knee: shaded from the last sustained step to the breaking one. */
function marks(c: CapacityVerdict, f: Frame): string {
  const top = M.top;
  const bottom = H - M.bottom;
  const parts: string[] = [];
  if (c.breakingRate !== null) {
    const from = f.x(c.sustainedRate);
    parts.push(
      `<rect x="${num(from)}" y="${top}" width="${num(Math.max(2, f.x(c.breakingRate) - from))}" height="${bottom - top}"` +
        ` fill="${COLOURS.knee}" fill-opacity="0.18"><title>knee: sustained ${c.sustainedRate} → breaking ${c.breakingRate} req/s</title></rect>`,
    );
    parts.push(
      `<text x="${num(f.x(c.breakingRate) + 3)}" y="${top + 10}" fill="${COLOURS.knee}" font-weight="600">knee</text>`,
    );
  }
  const px = num(f.x(c.plannedRate));
  parts.push(
    `<line x1="${px}" x2="${px}" y1="${top}" y2="${bottom}" stroke="${COLOURS.planned}" stroke-width="1.5" stroke-dasharray="3 3">` +
      `<title>planned ${c.plannedRate} req/s</title></line>`,
  );
  parts.push(`<text x="${num(f.x(c.plannedRate) + 3)}" y="${bottom - 4}" fill="${COLOURS.planned}">planned</text>`);
  return parts.join('');
}

function series(
  f: Frame,
  points: Array<[number, number]>,
  colour: string,
  label: string,
  dots: CapacityStep[] = [],
): string {
  if (points.length === 0) return '';
  const d = points.map(([x, y], i) => `${i === 0 ? 'M' : 'L'}${num(f.x(x))},${num(f.y(y))}`).join('');
  const circles = points.map(([x, y], i) => {
    const step = dots[i];
    const fill = step ? VERDICT_COLOUR[step.verdict] : colour;
    return (
      `<circle cx="${num(f.x(x))}" cy="${num(f.y(y))}" r="${step ? 3.5 : 2.5}" fill="${fill}"><title>${esc(label)} at ${fmt(x)} req/s:` +
      ` ${fmt(y, 2)}${step ? ` (${step.verdict})` : ''}</title></circle>`
    );
  });
  return `<path d="${d}" fill="none" stroke="${colour}" stroke-width="1.8"/>${circles.join('')}`;
}

function svg(label: string, body: string): string {
  return `<svg class="plot capacity" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="${esc(label)}">${body}</svg>`;
}

function latencyPlot(c: CapacityVerdict): string {
  const values = c.steps.flatMap((s) => Object.values(s.percentilesMs).filter((v): v is number => v !== null));
  const sloMax = Math.max(0, ...Object.values(c.slo.latencyMs));
  const lo = Math.max(0.1, Math.min(1, ...values));
  const hi = Math.max(sloMax, ...values, 10) * 1.5;
  const y: Scale = (v) =>
    H -
    M.bottom -
    ((Math.log10(Math.max(v, lo)) - Math.log10(lo)) / (Math.log10(hi) - Math.log10(lo))) * (H - M.top - M.bottom);
  const f: Frame = { ...xFrame(c), y };
  const decades = [];
  for (let d = Math.ceil(Math.log10(lo)); d <= Math.floor(Math.log10(hi)); d++) decades.push(10 ** d);
  const grid = decades.map(
    (v) =>
      `<line x1="${M.left}" x2="${W - M.right}" y1="${num(y(v))}" y2="${num(y(v))}" stroke="#eceff3"/><text x="${M.left - 6}"` +
      ` y="${num(y(v) + 4)}" text-anchor="end">${v < 1 ? v : fmt(v, 0)} ms</text>`,
  );
  const line = (p: 'p50Ms' | 'p95Ms' | 'p99Ms', colour: string, withDots: boolean) => {
    const steps = c.steps.filter((s) => s[p] !== null);
    return series(
      f,
      steps.map((s) => [s.offeredRate, s[p]!]),
      colour,
      p.slice(0, 3),
      withDots ? steps : [],
    );
  };
  const slo = Object.entries(c.slo.latencyMs).map(([p, ms]) => hLine(f, ms, COLOURS.slo, `p${p} SLO ${ms} ms`));
  return svg(
    'latency percentiles against offered rate',
    [
      grid.join(''),
      marks(c, f),
      ...slo,
      line('p50Ms', COLOURS.p50, false),
      line('p95Ms', COLOURS.p95, false),
      line('p99Ms', COLOURS.p99, true),
      xAxis(f),
      yLabel('latency (log scale)'),
    ].join(''),
  );
}

function linearPlot(
  c: CapacityVerdict,
  label: string,
  yText: string,
  yMax: number,
  body: (f: Frame) => string,
  unit = '',
): string {
  const y: Scale = (v) => H - M.bottom - (v / yMax) * (H - M.top - M.bottom);
  const f: Frame = { ...xFrame(c), y };
  const grid = [0, 0.25, 0.5, 0.75, 1].map(
    (t) =>
      `<line x1="${M.left}" x2="${W - M.right}" y1="${num(y(t * yMax))}" y2="${num(y(t * yMax))}" stroke="#eceff3"/><text x="${M.left - 6}"` +
      ` y="${num(y(t * yMax) + 4)}" text-anchor="end">${fmt(t * yMax, yMax < 5 ? 2 : 0)}${unit}</text>`,
  );
  return svg(label, [grid.join(''), marks(c, f), body(f), xAxis(f), yLabel(yText)].join(''));
}

function errorPlot(c: CapacityVerdict): string {
  const pct = c.steps.map((s) => s.errorRate * 100);
  const bound = c.slo.errorRate === null ? 0 : c.slo.errorRate * 100;
  const yMax = Math.max(bound * 2, ...pct, 1);
  return linearPlot(
    c,
    'error rate against offered rate',
    'errors (5xx, transport, timeouts)',
    yMax,
    (f) =>
      (c.slo.errorRate === null ? '' : hLine(f, bound, COLOURS.slo, `SLO ${fmt(bound, 2)} %`)) +
      series(
        f,
        c.steps.map((s, i) => [s.offeredRate, pct[i]!]),
        COLOURS.slo_step,
        'errors %',
        c.steps,
      ),
    ' %',
  );
}

function achievedPlot(c: CapacityVerdict): string {
  const f0 = xFrame(c);
  return linearPlot(c, 'achieved against offered rate', 'achieved rate (requests/s)', f0.xMax, (f) => {
    const diag =
      `<line x1="${num(f.x(0))}" y1="${num(f.y(0))}" x2="${num(f.x(f.xMax))}" y2="${num(f.y(f.xMax))}" stroke="#9ca3af"` +
      ` stroke-dasharray="4 3"><title>achieved = offered</title></line>`;
    const shareY = num(f.y(f.xMax * c.slo.achievedShare));
    const label = `${c.slo.achievedShare * 100} % of offered`;
    const share =
      `<line x1="${num(f.x(0))}" y1="${num(f.y(0))}" x2="${num(f.x(f.xMax))}" y2="${shareY}" ` +
      `stroke="${COLOURS.slo}" stroke-dasharray="6 3"><title>${label}</title></line>` +
      `<text x="${W - M.right + 4}" y="${num(f.y(f.xMax * c.slo.achievedShare) + 4)}" fill="${COLOURS.slo}">${label}</text>`;
    return (
      diag +
      share +
      series(
        f,
        c.steps.map((s) => [s.offeredRate, s.achievedRate]),
        COLOURS.achieved,
        'achieved req/s',
        c.steps,
      )
    );
  });
}

function facts(c: CapacityVerdict): string {
  const rows: Array<[string, string]> = [
    ['Summary', c.summary], // figures only: the run's verdict is the report's over its checks (the banner)
    ['Planned rate', `${fmt(c.plannedRate)} req/s`],
    [
      'Sustained rate',
      `${fmt(c.sustainedRate)} req/s (highest step that met the SLO with achieved ≥ ${c.slo.achievedShare * 100} % of offered)`,
    ],
    ['Breaking rate', c.breakingRate === null ? 'none: no step broke the SLO' : `${fmt(c.breakingRate)} req/s`],
    ['Headroom', `${fmt(c.headroom, 3)} × planned (needed: ${c.minHeadroom})`],
    [
      'Generator limit',
      c.generatorLimit === null
        ? 'not measured'
        : `${c.generatorLimitIsLowerBound ? '≥ ' : ''}${fmt(c.generatorLimit)} req/s against a trivial local target`,
    ],
    ['SLO', c.slo.text],
  ];
  if (c.mix)
    rows.splice(2, 0, [
      'Mix',
      Object.entries(c.mix)
        .map(
          ([plan, rate]) =>
            `${plan} ${fmt(rate)} req/s${c.keys?.[plan] !== undefined ? ` on ${c.keys[plan]} keys` : ''}`,
        )
        .join(' · '),
    ]);
  if (c.notes?.length) rows.push(['Notes', c.notes.join(' · ')]);
  return `<table class="facts">${rows.map(([k, v]) => `<tr><th>${esc(k)}</th><td>${esc(v)}</td></tr>`).join('')}</table>`;
}

function stepsTable(c: CapacityVerdict): string {
  const rows = c.steps.map((s, i) => {
    const css = s.verdict === 'ok' ? '' : s.verdict === 'slo' ? 'fail' : 'finding';
    const figures = [
      i + 1,
      fmt(s.offeredRate),
      fmt(s.achievedRate),
      fmt(s.p50Ms),
      fmt(s.p95Ms),
      fmt(s.p99Ms),
      fmt(s.errorRate * 100, 2),
      s.droppedIterations,
      s.below_quota_429,
    ]
      .map((v) => `<td>${v}</td>`)
      .join('');
    const note =
      s.percentiles === 'upper-bound' ? ' <span class="note">(percentiles: upper bounds over runners)</span>' : '';
    return (
      `<tr class="${css}">${figures}<td class="outcome ${css || 'pass'}">${esc(s.verdict)}</td>` +
      `<td>${esc(s.breaches.join('; '))}${note}</td></tr>`
    );
  });
  return (
    `<table class="checks"><thead><tr><th>Step</th><th>Offered req/s</th><th>Achieved req/s</th><th>p50 ms</th><th>p95 ms</th><th>p99` +
    ` ms</th><th>Errors %</th><th>Dropped</th><th>429 below quota</th><th>Verdict</th><th>Why</th></tr></thead><tbody>${rows.join('')}</tbody></table>`
  );
}

function canaryTable(c: CapacityVerdict): string {
  const canaries = c.canaries ?? [];
  if (canaries.length === 0) return '';
  const rows = canaries.flatMap((k) =>
    k.windows.map(
      (w) =>
        `<tr class="${w.admitted > k.perMinute || (w.rejected > 0 && w.admitted < k.perMinute) ? 'fail' : ''}"><td>${esc(k.plan)}</td>` +
        `<td>${k.perMinute}</td><td>${w.reset}</td><td>${w.admitted}</td><td>${w.rejected}</td></tr>`,
    ),
  );
  return (
    `<h3>Canaries (driven past their quota under load)</h3><table class="checks"><thead><tr><th>Plan</th><th>Quota per minute</th>` +
    `<th>Window (X-RateLimit-Reset)</th><th>Admitted</th><th>429</th></tr></thead><tbody>${rows.join('')}</tbody></table>`
  );
}

export function capacitySection(c: CapacityVerdict | undefined): string {
  if (c === undefined) return '';
  const legend =
    'Points per step: green ok, red broke the SLO, amber generator-bound. Grey dashed: the planned rate. Shaded: the knee (last sustained' +
    ' step → breaking step). Red dashed: the SLO.';
  return (
    `<section id="capacity"><h2>Capacity</h2>${facts(c)}
<figure class="probe"><figcaption>Latency p50 (light), p95, p99 (dark, points) against the offered rate. ${esc(legend)}</figcaption>${latencyPlot(c)}</figure>
<figure class="probe"><figcaption>Error rate against the offered rate.</figcaption>${errorPlot(c)}</figure>
<figure class="probe"><figcaption>Achieved against offered rate (grey: equal; red: the ${c.slo.achievedShare * 100} % a step must reach).` +
    `</figcaption>${achievedPlot(c)}</figure>
<h3>Steps</h3>${stepsTable(c)}${canaryTable(c)}</section>`
  );
}
