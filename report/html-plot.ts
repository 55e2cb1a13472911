// Inline SVG plots of quota probes (no library, no network). A probe's series can hold 100,000
// samples (the day probe), so points are thinned per pixel column before drawing: every column keeps
// its first, last, lowest and highest sample and its first 429, which keeps the staircase's shape.
import { escapeHtml } from './html-escape.ts';
import type { Sample } from './model.ts';

const W = 720;
const H = 240;
const M = { left: 56, right: 16, top: 14, bottom: 36 };
const PLOT_W = W - M.left - M.right;
const PLOT_H = H - M.top - M.bottom;

type Scale = (v: number) => number;

const admitted = (s: Sample): boolean => s.status >= 200 && s.status < 300;
const num = (v: number): string => (Math.round(v * 10) / 10).toString();
// Spreading 100,000 values into Math.max can overflow the stack; fold instead.
const maxOf = (values: readonly number[], floor: number): number => values.reduce((m, v) => (v > m ? v : m), floor);

function linear(d0: number, d1: number, r0: number, r1: number): Scale {
  const span = d1 - d0 || 1;
  return (v) => r0 + ((v - d0) / span) * (r1 - r0);
}

/** x in seconds since the first sample; falls back to the request index when time did not move. */
function xValues(samples: readonly Sample[]): { xs: number[]; unit: string } {
  const t0 = samples[0]?.t ?? 0;
  const xs = samples.map((s) => (s.t - t0) / 1000);
  if (xs.length > 1 && xs.every((x) => x === 0)) return { xs: samples.map((_, i) => i), unit: 'request #' };
  return { xs, unit: 'seconds since the first request' };
}

/** Indices of samples to draw: per pixel column the first, last, min, max and first 429. */
export function thin(
  xs: readonly number[],
  ys: readonly number[],
  statuses: readonly number[],
  columns = PLOT_W,
): number[] {
  if (xs.length <= columns * 2) return xs.map((_, i) => i);
  const lo = -maxOf(
    xs.map((x) => -x),
    -Infinity,
  );
  const span = maxOf(xs, -Infinity) - lo || 1;
  const keep = new Set<number>();
  const byColumn = new Map<number, number[]>();
  xs.forEach((x, i) => {
    const c = Math.floor(((x - lo) / span) * (columns - 1));
    const column = byColumn.get(c);
    if (column) column.push(i);
    else byColumn.set(c, [i]);
  });
  for (const idx of byColumn.values()) {
    keep.add(idx[0]!).add(idx[idx.length - 1]!);
    const sorted = [...idx].sort((a, b) => ys[a]! - ys[b]!);
    keep.add(sorted[0]!).add(sorted[sorted.length - 1]!);
    const rejected = idx.find((i) => statuses[i] === 429);
    if (rejected !== undefined) keep.add(rejected);
  }
  return [...keep].sort((a, b) => a - b);
}

/**
 * The staircase a correct server draws: within one window (one X-RateLimit-Reset value, the server's
 * own statement of its window) Remaining falls by one per admitted request from where the window began.
 */
export function expectedStaircase(samples: readonly Sample[]): Array<number | undefined> {
  let capacity: number | undefined;
  let used = 0;
  let windowKey: string | undefined;
  return samples.map((s, i) => {
    const prev = samples[i - 1];
    const key = s.reset !== undefined ? `r${s.reset}|${s.limit}` : undefined;
    const newWindow =
      i === 0 ||
      (key !== undefined
        ? key !== windowKey
        : s.remaining !== undefined && prev?.remaining !== undefined && s.remaining > prev.remaining);
    windowKey = key;
    if (newWindow) {
      capacity = s.remaining === undefined ? undefined : s.remaining + (admitted(s) ? 1 : 0);
      used = 0;
    }
    if (admitted(s)) used += 1;
    return capacity === undefined ? undefined : Math.max(0, capacity - used);
  });
}

/** Retry-After waits as merged [from, to] intervals in x units (seconds). */
export function retryAfterWaits(samples: readonly Sample[], xs: readonly number[]): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  samples.forEach((s, i) => {
    if (s.status !== 429 || s.retryAfter === undefined || !(s.retryAfter > 0)) return;
    const from = xs[i]!;
    const to = from + s.retryAfter;
    const last = spans[spans.length - 1];
    if (last && from <= last[1]) last[1] = Math.max(last[1], to);
    else spans.push([from, to]);
  });
  return spans;
}

function stepPath(points: Array<[number, number]>): string {
  return points.map(([x, y], i) => (i === 0 ? `M${num(x)},${num(y)}` : `H${num(x)}V${num(y)}`)).join('');
}

function axes(xMax: number, yMax: number, x: Scale, y: Scale, unit: string, yLabel: string): string {
  const ticks = [0, 0.25, 0.5, 0.75, 1];
  const xt = ticks.map(
    (f) => `<text x="${num(x(f * xMax))}" y="${H - M.bottom + 14}" text-anchor="middle">${num(f * xMax)}</text>`,
  );
  const yt = ticks.map(
    (f) =>
      `<text x="${M.left - 6}" y="${num(y(f * yMax) + 4)}" text-anchor="end">${Math.round(f * yMax)}</text><line class="grid" x1="${M.left}"` +
      ` x2="${W - M.right}" y1="${num(y(f * yMax))}" y2="${num(y(f * yMax))}"/>`,
  );
  return [
    `<g class="axes">${yt.join('')}${xt.join('')}`,
    `<text x="${M.left + PLOT_W / 2}" y="${H - 4}" text-anchor="middle">${escapeHtml(unit)}</text>`,
    `<text transform="translate(12,${M.top + PLOT_H / 2}) rotate(-90)" text-anchor="middle">${escapeHtml(yLabel)}</text></g>`,
  ].join('');
}

function rejectionMarks(points: Array<[number, number]>): string {
  return points
    .map(
      ([px, py]) => `<path class="rejected" d="M${num(px - 4)},${num(py - 4)}l8,8m0,-8l-8,8"><title>429</title></path>`,
    )
    .join('');
}

function svg(label: string, body: string): string {
  return `<svg class="plot" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="${escapeHtml(label)}">${body}</svg>`;
}

/** A window over the plan's figure (report.json `overAdmitted`), in the series' server time. */
export interface OverWindow {
  startMs: number;
  spanMs: number;
  admitted: number;
  figure: number;
  quota: string;
}

/** Windows over the figure that overlap the plot's time (`xs` from the first sample at `t0`), shaded red. */
function overMarks(over: readonly OverWindow[], t0: number, xMax: number, x: Scale): string[] {
  return over
    .map((o) => ({ o, a: (o.startMs - t0) / 1000, b: (o.startMs + o.spanMs - t0) / 1000 }))
    .filter(({ a, b }) => b >= 0 && a <= xMax)
    .map(({ o, a, b }) => {
      const from = x(Math.max(0, a));
      const title = `${o.admitted} admitted within ${num(o.spanMs / 1000)} s: over the ${o.quota} figure ${o.figure}`;
      return (
        `<rect class="over" x="${num(from)}" y="${M.top}" width="${num(Math.max(2, x(Math.min(xMax, b)) - from))}" height="${PLOT_H}">` +
        `<title>${escapeHtml(title)}</title></rect>`
      );
    });
}

/** Remaining over time against the expected staircase, 429s marked, Retry-After waits and windows over the figure shaded. */
export function remainingPlot(probe: string, samples: readonly Sample[], over: readonly OverWindow[] = []): string {
  const { xs, unit } = xValues(samples);
  const expected = expectedStaircase(samples);
  const waits = retryAfterWaits(samples, xs);
  const remaining = samples.map((s) => s.remaining ?? 0);
  const xMax = maxOf([...waits.map((w) => w[1])], maxOf(xs, 1e-9));
  const yMax = maxOf(
    samples.map((s) => Math.max(s.limit ?? 0, s.remaining ?? 0)),
    1,
  );
  const x = linear(0, xMax, M.left, W - M.right);
  const y = linear(0, yMax, H - M.bottom, M.top);
  const idx = thin(
    xs,
    remaining,
    samples.map((s) => s.status),
  );
  const shaded = waits.map(
    ([a, b]) =>
      `<rect class="wait" x="${num(x(a))}" y="${M.top}" width="${num(Math.max(1, x(b) - x(a)))}" height="${PLOT_H}"><title>Retry-After wait` +
      ` ${num(b - a)} s</title></rect>`,
  );
  const seen = idx.filter((i) => samples[i]!.remaining !== undefined);
  const observed = seen.map((i): [number, number] => [x(xs[i]!), y(samples[i]!.remaining!)]);
  const stair = idx.filter((i) => expected[i] !== undefined).map((i): [number, number] => [x(xs[i]!), y(expected[i]!)]);
  const limits = idx
    .filter((i) => samples[i]!.limit !== undefined)
    .map((i): [number, number] => [x(xs[i]!), y(samples[i]!.limit!)]);
  const dots = seen
    .filter((i) => admitted(samples[i]!))
    .map((i) => `<circle class="point" cx="${num(x(xs[i]!))}" cy="${num(y(samples[i]!.remaining!))}" r="2"/>`);
  const rejected = idx
    .filter((i) => samples[i]!.status === 429)
    .map((i): [number, number] => [x(xs[i]!), y(samples[i]!.remaining ?? 0)]);
  const timed = unit !== 'request #';
  return svg(
    `Remaining over time, probe ${probe}`,
    [
      axes(xMax, yMax, x, y, unit, 'X-RateLimit-Remaining'),
      ...shaded,
      ...(timed ? overMarks(over, samples[0]?.t ?? 0, xMax, x) : []),
      limits.length ? `<path class="limit" d="${stepPath(limits)}"/>` : '',
      observed.length ? `<path class="observed" d="${stepPath(observed)}"/>` : '',
      stair.length ? `<path class="expected" d="${stepPath(stair)}"/>` : '',
      ...dots,
      rejectionMarks(rejected),
    ].join(''),
  );
}

export interface DayFrame {
  quota?: number;
  /** Day window length, s, and one known day-window end (Unix s, the server's own statement). */
  daySeconds?: number;
  dayEnd?: number;
}

/** Day-window index of each sample (0 when the windows are unknown): windows have a fixed length. */
export function dayWindows(samples: readonly Sample[], frame: DayFrame): number[] {
  const { daySeconds, dayEnd } = frame;
  if (daySeconds === undefined || dayEnd === undefined) return samples.map(() => 0);
  return samples.map((s) => Math.floor((s.t / 1000 - dayEnd) / daySeconds));
}

/** The day probe: admitted requests counted per day window, against the day quota. */
export function cumulativePlot(probe: string, samples: readonly Sample[], frame: DayFrame): string {
  const { xs, unit } = xValues(samples);
  const windows = dayWindows(samples, frame);
  let count = 0;
  const cumulative = samples.map((s, i) => {
    if (i > 0 && windows[i] !== windows[i - 1]) count = 0;
    return admitted(s) ? (count += 1) : count;
  });
  const quota = frame.quota;
  const xMax = maxOf(xs, 1e-9);
  const yMax = Math.max(maxOf(cumulative, 1), quota ?? 0) * 1.05;
  const x = linear(0, xMax, M.left, W - M.right);
  const y = linear(0, yMax, H - M.bottom, M.top);
  const idx = thin(
    xs,
    cumulative,
    samples.map((s, i) => (i > 0 && windows[i] !== windows[i - 1] ? 429 : s.status)),
  );
  const line = idx.map((i): [number, number] => [x(xs[i]!), y(cumulative[i]!)]);
  const dots = idx
    .filter((i) => admitted(samples[i]!))
    .map((i) => `<circle class="point" cx="${num(x(xs[i]!))}" cy="${num(y(cumulative[i]!))}" r="1.5"/>`);
  const rejected = idx
    .filter((i) => samples[i]!.status === 429)
    .map((i): [number, number] => [x(xs[i]!), y(cumulative[i]!)]);
  const boundaries = samples.flatMap((_, i) =>
    i > 0 && windows[i] !== windows[i - 1]
      ? [
          `<line class="day-boundary" x1="${num(x(xs[i]!))}" x2="${num(x(xs[i]!))}" y1="${M.top}" y2="${H - M.bottom}"><title>a new day window</title></line>`,
        ]
      : [],
  );
  const quotaLine =
    quota === undefined
      ? ''
      : `<line class="quota" x1="${M.left}" x2="${W - M.right}" y1="${num(y(quota))}" y2="${num(y(quota))}"><title>day quota ${quota}</title></line>`;
  return svg(
    `Admitted requests per day window, probe ${probe}`,
    [
      axes(xMax, yMax, x, y, unit, 'admitted in the day window'),
      ...boundaries,
      quotaLine,
      `<path class="observed" d="${stepPath(line)}"/>`,
      ...dots,
      rejectionMarks(rejected),
    ].join(''),
  );
}
