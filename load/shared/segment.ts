// Splitting keys across k6 execution segments: a distributed run (k6-operator TestRun, parallelism N)
// gives runner i the segment "i/N:(i+1)/N"; key j belongs to the runner whose half-open segment holds
// j/K, so no key is ever shared between runners. The capacity bundle's canaries are split so (a canary
// driven past its quota by two runners would be judged twice on half the evidence each); its load keys
// are not: a runner picks them by the test-wide iteration number (load/k6/capacity.ts).
import { ConfigError } from '../../core/errors.ts';

interface SegmentSpan {
  from: number;
  to: number;
}

/** "1/3", "0.5", "50%" or "" → a number in [0, 1]; NaN when it is none. */
function segmentPoint(text: string): number {
  const t = text.trim();
  let value: number;
  if (t === '') value = 0;
  else if (/^\d+\/\d+$/.test(t)) {
    const [a, b] = t.split('/').map(Number) as [number, number];
    value = b === 0 ? NaN : a / b;
  } else if (/^\d+(\.\d+)?%$/.test(t)) value = Number(t.slice(0, -1)) / 100;
  else if (/^\d+(\.\d+)?$/.test(t)) value = Number(t);
  else value = NaN;
  return value >= 0 && value <= 1 ? value : NaN;
}

/**
 * "from:to" (k6's executionSegment); a ConfigError when it is none. No segment is the whole test: under
 * a plain `k6 run` (no --execution-segment) k6 gives `exec.test.options.executionSegment` as null, not
 * "": so null, undefined and "" all mean 0:1.
 */
export function parseSegment(segment: unknown): SegmentSpan {
  const none = (why: string) => new ConfigError(why, 'executionSegment');
  if (segment === undefined || segment === null || (typeof segment === 'string' && segment.trim() === ''))
    return { from: 0, to: 1 };
  if (typeof segment !== 'string') throw none(`not a segment: ${JSON.stringify(segment)}`);
  const parts = segment.split(':');
  const [fromText, toText] = parts.length === 2 ? [parts[0]!, parts[1]!] : ['0', parts[0]!];
  const from = segmentPoint(fromText);
  const to = segmentPoint(toText);
  if (Number.isNaN(from) || Number.isNaN(to))
    throw none(`not a segment point: ${JSON.stringify(Number.isNaN(from) ? fromText : toText)}`);
  if (from >= to) throw none(`empty segment ${JSON.stringify(segment)}`);
  return { from, to };
}

/**
 * Why a runner must not start (undefined: it may). A runner given part of the test and no
 * --execution-segment-sequence gets a sequence k6 fills in for it alone, and k6 numbers its iterations
 * (`exec.scenario.iterationInTest`) by that sequence: runners numbered so overlap, and the capacity
 * bundle, which picks each load key by that number, would send some keys several runners' share.
 */
export function unsharedSequence(segment: unknown, sequence: unknown): string | undefined {
  const { from, to } = parseSegment(segment);
  if ((from === 0 && to === 1) || (typeof sequence === 'string' && sequence.trim() !== '')) return undefined;
  return (
    `--execution-segment ${String(segment)} without --execution-segment-sequence: k6 would number this runner's ` +
    "iterations by a sequence of its own, they would overlap with other runners' and some keys would carry " +
    "several runners' share of the load. Give every runner the same --execution-segment-sequence " +
    '(e.g. 0,1/3,2/3,1 for thirds; the k6-operator does).'
  );
}

/** The keys a segment holds: segmentRange's. */
export function keysForSegment<T>(keys: readonly T[], segment: unknown): T[] {
  const { start, count } = segmentRange(keys.length, parseSegment(segment));
  return keys.slice(start, start + count);
}

/** A segment's keys as an index range, [start, start + count) of `total` keys, without touching them. */
export function segmentRange(total: number, { from, to }: SegmentSpan): { start: number; count: number } {
  // Key j belongs when j/total ∈ [from − eps, to − eps): 1/3 + 1/3 + 1/3 tile [0, 1) exactly despite floating point.
  const eps = 1e-9;
  const first = (x: number): number => {
    let j = Math.max(0, Math.min(total, Math.floor((x - eps) * total)));
    while (j < total && j / total < x - eps) j++;
    while (j > 0 && (j - 1) / total >= x - eps) j--;
    return j;
  };
  const start = first(from);
  return { start, count: first(to) - start };
}
