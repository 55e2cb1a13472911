// What one k6 runner reports: per step, counts and its own exact percentiles; per canary, its windows.
// It is printed as one marked JSON line on stdout (and so in `kubectl logs`), which `petcert capacity`
// and `petcert capacity merge` read back. Counts and rates add across runners; percentiles do not.
import { ConfigError } from '../../core/errors.ts';
import type { CapacityCanary } from '../../report/capacity.ts';
import type { Histogram } from '../shared/histogram.ts';

export const RESULT_MARKER = 'PETCERT_CAPACITY_RESULT ';
export const RESULT_VERSION = 1;

export interface RunnerStep {
  index: number;
  /** The whole run's offered rate for this step (all runners), req/s. */
  offeredRate: number;
  /** This runner's share of it (its execution segment's length). */
  share: number;
  seconds: number;
  requests: number;
  /** 5xx, transport errors and timeouts. */
  failed: number;
  dropped: number;
  below429: number;
  /** 4xx other than 429 (e.g. 404 for an id the store evicted): recorded, not an SLO error. */
  unexpected4xx: number;
  /** percentile ("99") → ms, exact for this runner */
  percentilesMs: Record<string, number>;
  /** This runner's latencies (load/shared/histogram.ts): merged across runners bucket by bucket. */
  histogram?: Histogram;
  /** Requests with no HTTP answer (status 0; among `failed`), absent in older logs. */
  noAnswer?: number;
  /** Their k6 error texts ("x509: …", "proxyconnect tcp: …") and how many had each. */
  noAnswerErrors?: Record<string, number>;
}

/** One canary key's windows (the report's type: report.json carries them as they are). */
export type CanaryResult = CapacityCanary;
export type CanaryWindow = CapacityCanary['windows'][number];

/** What every runner of one run shares: enough for `petcert capacity merge` to judge without flags. */
export interface RunInfo {
  target: string;
  plannedRate: number;
  /** the SLO as given (--slo) */
  slo: string;
  minHeadroom: number;
  /** 1, or the share --scale-to-keys kept */
  scale: number;
  /** the schedule's top rate, req/s */
  topRate: number;
  stepCount: number;
  canaryStep: number;
  /** canary keys in the whole run */
  canaries: number;
  /** false: --no-canaries (CANARIES=0) */
  canariesRequested: boolean;
  /** When no canary can judge: what would let one (canary-plan.ts); absent in older logs. */
  canaryNeed?: string | null;
}

export interface RunnerResult {
  tool: 'petcert-capacity';
  version: typeof RESULT_VERSION;
  run: RunInfo;
  /** k6 execution segment ("0:1" when none). */
  segment: string;
  /**
   * k6's --execution-segment-sequence (null when none). Runners pick load keys by iteration number, and
   * only runners given one sequence number iterations without overlap. Absent from the lines of older
   * bundles, whose runners owned whole keys.
   */
  sequence?: string | null;
  steps: RunnerStep[];
  canaries: CanaryResult[];
}

export const resultLine = (r: RunnerResult): string => `${RESULT_MARKER}${JSON.stringify(r)}`;

function isRunnerResult(v: unknown): v is RunnerResult {
  const r = v as RunnerResult;
  return (
    typeof r === 'object' &&
    r !== null &&
    r.tool === 'petcert-capacity' &&
    r.version === RESULT_VERSION &&
    Array.isArray(r.steps) &&
    Array.isArray(r.canaries) &&
    typeof r.segment === 'string' &&
    typeof r.run === 'object' &&
    r.run !== null
  );
}

/**
 * Every runner result in a log (k6's stdout, or `kubectl logs` with its prefixes): the marker may sit
 * anywhere on a line; what follows it must be one JSON object of this version.
 */
export function parseRunnerResults(text: string, source: string): RunnerResult[] {
  const out: RunnerResult[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    const at = line.indexOf(RESULT_MARKER);
    if (at === -1) return;
    let value: unknown;
    try {
      value = JSON.parse(line.slice(at + RESULT_MARKER.length));
    } catch {
      throw new ConfigError('a petcert capacity result line is not valid JSON (cut off?)', `${source}:${i + 1}`);
    }
    if (!isRunnerResult(value))
      throw new ConfigError(`not a petcert capacity result of version ${RESULT_VERSION}`, `${source}:${i + 1}`);
    out.push(value);
  });
  return out;
}

/**
 * A canary's result is known in one VU only, so it travels as a log line of its own. Logs may be
 * logfmt (`msg="…"`, which escapes double quotes), so the JSON goes out with single quotes: plan
 * names and numbers never contain one.
 */
export const CANARY_MARKER = 'PETCERT_CAPACITY_CANARY ';

export const canaryLine = (c: CanaryResult): string => `${CANARY_MARKER}${JSON.stringify(c).replace(/"/g, "'")}`;

function isCanary(v: unknown): v is CanaryResult {
  const c = v as CanaryResult;
  return (
    typeof c === 'object' &&
    c !== null &&
    typeof c.plan === 'string' &&
    typeof c.perMinute === 'number' &&
    Array.isArray(c.windows) &&
    typeof c.sent === 'number'
  );
}

export function parseCanaryLines(text: string, source: string): CanaryResult[] {
  const out: CanaryResult[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    const at = line.indexOf(CANARY_MARKER);
    if (at === -1) return;
    const body = /^\{[^"\\]*\}/.exec(line.slice(at + CANARY_MARKER.length))?.[0];
    let value: unknown;
    try {
      value = body === undefined ? undefined : JSON.parse(body.replace(/'/g, '"'));
    } catch {
      value = undefined;
    }
    if (!isCanary(value))
      throw new ConfigError('a petcert canary line is not a canary result (cut off?)', `${source}:${i + 1}`);
    out.push(value);
  });
  return out;
}
