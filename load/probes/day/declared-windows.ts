// The fixed-window reading at the phase the server declares (spec/GAPS.md "Readings"): answers whose
// Resets name fixed windows — one end per window, up to a second's rounding either way, each end a whole
// window after the last — say where the limiter's windows lie, and a set of requests that crosses one of
// those ends is allowed the figure in each window it touches. A log's or a bucket's Resets move with each
// request and name no such ends, so they never get this allowance.
import type { Sample } from '../../../report/model.ts';
import { DATE_SLACK_MS, RESET_ROUNDING_MS } from '../../../spec/ratelimit.ts';
import type { Observation } from '../observation.ts';

const ROUNDING_S = RESET_ROUNDING_MS / 1000;

/** The Resets (Unix s) grouped by the window end they name: sorted, each group within the rounding of its first. */
export function namedEnds(resets: readonly number[]): number[][] {
  const groups: number[][] = [];
  for (const r of [...resets].sort((a, b) => a - b)) {
    const last = groups[groups.length - 1];
    if (last && r - last[0]! <= ROUNDING_S) last.push(r);
    else groups.push([r]);
  }
  return groups;
}

export interface DeclaredQuota {
  kind: 'minute' | 'day';
  /** The plan's figure, which X-RateLimit-Limit reports for this quota. */
  figure: number;
  windowMs: number;
  /** Requests of the key sent before the probes (their answers unseen): counted in the first declared window. */
  before: number;
}

/**
 * Whether `set` (admitted answers counted within one window's length) is allowed under the fixed windows
 * its own Resets declare: every one reports the quota with a Reset, they name two or more window ends a
 * whole window apart (less the rounding), and no declared window holds more than `figure` of the key's
 * admitted answers naming it (`samples`: every probe's; the requests before the probes count in the first).
 * Not allowed when an admitted answer of the key within those windows names no end of the quota (it reports
 * the other quota): its window is unknown, so no window's count can be trusted.
 */
export function declaredWindowsHold(
  set: readonly Observation[],
  samples: readonly Sample[],
  quota: DeclaredQuota,
): boolean {
  const resets = set.map((o) => (o.quota === quota.kind ? o.rate?.reset : undefined));
  if (resets.some((r) => r === undefined)) return false;
  const ends = namedEnds(resets as number[]);
  const windowS = quota.windowMs / 1000;
  const apart = ends.every((g, i) => i === 0 || g[0]! - ends[i - 1]![0]! >= windowS - ROUNDING_S);
  if (ends.length < 2 || !apart) return false;
  const admitted = samples.filter((s) => s.status >= 200 && s.status < 300);
  const [fromMs, toMs] = [
    (ends[0]![0]! - windowS - ROUNDING_S) * 1000,
    (ends[ends.length - 1]![0]! + ROUNDING_S) * 1000,
  ];
  const within = admitted.filter((s) => s.t + DATE_SLACK_MS >= fromMs && s.t - DATE_SLACK_MS <= toMs);
  if (within.some((s) => s.limit !== quota.figure || s.reset === undefined)) return false;
  return ends.every((g, i) => {
    const [lo, hi] = [g[0]! - ROUNDING_S, g[0]! + ROUNDING_S];
    const named = admitted.filter((s) => s.limit === quota.figure && s.reset! >= lo && s.reset! <= hi).length;
    return named + (i === 0 ? quota.before : 0) <= quota.figure;
  });
}
