// The service-level objective each step is judged against: latency percentiles and an error rate
// (5xx, transport errors, timeouts). `p99<500ms,p95<250ms,errors<0.5%` is the default.
import { ConfigError } from '../../core/errors.ts';

export const DEFAULT_SLO = 'p99<500ms,p95<250ms,errors<0.5%';

export interface Slo {
  /** percentile (e.g. 99) → bound in ms */
  latency: Record<string, number>;
  /** bound on the error share, 0..1 (null: not judged) */
  errorRate: number | null;
}

export function parseSlo(text: string = DEFAULT_SLO): Slo {
  const slo: Slo = { latency: {}, errorRate: null };
  for (const term of text
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean)) {
    const lat = /^p(\d{1,2}(?:\.\d+)?)\s*<\s*(\d+(?:\.\d+)?)\s*(ms|s)$/.exec(term);
    const err = /^errors\s*<\s*(\d+(?:\.\d+)?)\s*%$/.exec(term);
    if (lat) {
      const p = Number(lat[1]);
      if (!(p > 0 && p < 100)) throw new ConfigError(`percentile must be in (0, 100), got p${lat[1]}`, '--slo');
      slo.latency[String(p)] = Number(lat[2]) * (lat[3] === 's' ? 1000 : 1);
    } else if (err) {
      slo.errorRate = Number(err[1]) / 100;
    } else
      throw new ConfigError(
        `cannot read ${JSON.stringify(term)} (terms like p99<500ms, p95<0.25s, errors<0.5%)`,
        '--slo',
      );
  }
  if (Object.keys(slo.latency).length === 0 && slo.errorRate === null)
    throw new ConfigError('needs at least one term', '--slo');
  return slo;
}

/** The k6 trend stat name of a percentile: 99 → "p(99)". */
export const trendStat = (p: string): string => `p(${p})`;

/** Percentiles every step reports (p50/p95/p99) plus any the SLO names. */
export function reportedPercentiles(slo: Slo): string[] {
  return [...new Set(['50', '95', '99', ...Object.keys(slo.latency)])].sort((a, b) => Number(a) - Number(b));
}

/** Which SLO terms a step broke (empty: met). */
export function sloBreaches(slo: Slo, percentilesMs: Record<string, number | undefined>, errorRate: number): string[] {
  const out: string[] = [];
  for (const [p, bound] of Object.entries(slo.latency)) {
    const v = percentilesMs[p];
    if (v === undefined || !(v < bound))
      out.push(`p${p} ${v === undefined ? 'unknown' : `${Math.round(v)} ms`} ≥ ${bound} ms`);
  }
  if (slo.errorRate !== null && !(errorRate < slo.errorRate))
    out.push(`errors ${(errorRate * 100).toFixed(2)}% ≥ ${(slo.errorRate * 100).toFixed(2)}%`);
  return out;
}
