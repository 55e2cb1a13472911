// The canary keys' verdicts. During one step under load a few keys are driven past their quota: each
// minute window (as the server states it, by X-RateLimit-Reset) must admit at most its quota, and a
// window that refused anything must have admitted exactly its quota (§8.1); every 429 carries
// Retry-After (§8.3 rule 2).
import { lowerCaseHeaders } from '../../core/exchange.ts';
import { RATE_LIMIT_HEADERS } from '../../spec/contract.ts';
import { parseRetryAfter, parseUnixTime } from '../../spec/ratelimit.ts';
import type { CanaryResult, CanaryWindow } from './result.ts';

export interface CanaryResponse {
  status: number;
  /** X-RateLimit-Reset as sent, or NaN when absent */
  reset: number;
  retryAfterOk: boolean;
}

/**
 * What a canary keeps of an answer: its status, the window it counted in (§8.2's Reset, a Unix
 * timestamp whole or not: slowapi sends fractions), whether a 429 said when to retry.
 */
export function canaryResponse(status: number, headers: Record<string, string>): CanaryResponse {
  const lower = lowerCaseHeaders(headers);
  const reset = parseUnixTime(lower[RATE_LIMIT_HEADERS.reset]);
  return { status, reset: reset ?? NaN, retryAfterOk: status !== 429 || parseRetryAfter(lower).ok };
}

/** Sending stops after a few more requests once a 429 was seen, or at twice the quota + 10. */
export const CANARY_EXTRA = 3;
export const canaryBudget = (perMinute: number): number => 2 * perMinute + 10;

export function shouldSendMore(responses: readonly CanaryResponse[], perMinute: number): boolean {
  if (responses.length >= canaryBudget(perMinute)) return false;
  const first429 = responses.findIndex((r) => r.status === 429);
  return first429 === -1 || responses.length - first429 <= CANARY_EXTRA;
}

export function canaryWindows(responses: readonly CanaryResponse[]): CanaryWindow[] {
  const byReset = new Map<number, CanaryWindow>();
  responses.forEach((r, i) => {
    if (r.status === 0 || Number.isNaN(r.reset)) return;
    const w = byReset.get(r.reset) ?? { reset: r.reset, admitted: 0, rejected: 0 };
    if (r.status >= 200 && r.status < 300) {
      w.admitted++;
      w.lastAdmitted = i;
    } else if (r.status === 429) {
      w.rejected++;
      w.firstRejected ??= i;
    }
    byReset.set(r.reset, w);
  });
  return [...byReset.values()].sort((a, b) => a.reset - b.reset);
}

/**
 * Why a canary's windows are not one limiter's (undefined: they may be). Answers admitted under a later
 * Reset, every one sent before the first 429 of an earlier Reset, cannot be a later fixed window: two
 * limiters each write their own X-RateLimit-* (a day limiter's on a 200, the minute limiter's on a 429),
 * and the Resets then say nothing of which minute window admitted what.
 */
function twoLimiters(windows: readonly CanaryWindow[]): string | undefined {
  for (const refused of windows) {
    if (refused.firstRejected === undefined) continue;
    const before = windows.find(
      (w) => w.reset > refused.reset && w.lastAdmitted !== undefined && w.lastAdmitted < refused.firstRejected!,
    );
    if (before !== undefined) {
      return (
        `its ${before.admitted} admitted answers report Reset ${before.reset}, and the 429s sent after them Reset ` +
        `${refused.reset}: two limiters, each writing its own X-RateLimit-*, so the Resets do not say which minute window admitted what`
      );
    }
  }
  return undefined;
}

export interface CanaryFindings {
  overAdmitted: string[];
  underAdmitted: string[];
  missingRetryAfter: string[];
  /** canaries whose burst never met a 429 within its budget, or never reached the server */
  unjudged: string[];
  /** canaries whose windows could be judged */
  judged: number;
  /** 429s the canaries received (Retry-After is judged on these) */
  rejected: number;
}

export function judgeCanaries(canaries: readonly CanaryResult[]): CanaryFindings {
  const f: CanaryFindings = {
    overAdmitted: [],
    underAdmitted: [],
    missingRetryAfter: [],
    unjudged: [],
    judged: 0,
    rejected: 0,
  };
  canaries.forEach((c, n) => {
    const who = `canary ${n + 1} (${c.plan}, ${c.perMinute}/minute, step ${c.step})`;
    f.rejected += c.windows.reduce((sum, w) => sum + w.rejected, 0);
    if (c.missingRetryAfter > 0)
      f.missingRetryAfter.push(`${who}: ${c.missingRetryAfter} × 429 without a valid Retry-After`);
    const split = twoLimiters(c.windows);
    if (split !== undefined) {
      f.unjudged.push(`${who}: ${split}`);
      return;
    }
    for (const w of c.windows) {
      if (w.admitted > c.perMinute)
        f.overAdmitted.push(`${who}: the window ending at ${w.reset} admitted ${w.admitted} > ${c.perMinute}`);
      else if (w.rejected > 0 && w.admitted < c.perMinute)
        f.underAdmitted.push(
          `${who}: the window ending at ${w.reset} refused ${w.rejected} after admitting only ${w.admitted} of ${c.perMinute}`,
        );
    }
    if (c.windows.some((w) => w.rejected > 0 || w.admitted > c.perMinute)) f.judged++;
    else f.unjudged.push(`${who}: no 429 within ${c.sent} requests (${c.transportErrors} transport errors)`);
  });
  return f;
}
