// Finding a fresh minute window and counting what it admits. The window's end is learned from the
// server: X-RateLimit-Reset when the headers report the minute quota, else a minute 429's Retry-After.
import type { ProbeRun } from './context.ts';
import { sleepUntilServer } from './context.ts';
import { resetEndMs, type Observation } from './observe.ts';
import { DATE_SLACK_MS as SLACK_MS } from '../../spec/ratelimit.ts';
import { observe } from './request.ts';

export interface FreshWindow {
  /** Our first request of the window, when it was already fresh (saves waiting for the next one). */
  first?: Observation;
  /** Server ms at which this window ends. */
  endMs: number;
}

export interface WindowCount {
  admitted: Observation[];
  /** The 429 that ended the window's admissions. */
  rejected?: Observation;
  /** More than the plan's figure was admitted; sending stopped there. */
  over: boolean;
  endMs: number;
}

/** End of the minute window an observation belongs to, when the server told us. */
export function minuteEnd(run: ProbeRun, o: Observation): number | undefined {
  if (o.quota === 'minute') {
    const end = resetEndMs(run, o);
    if (end !== undefined) return end;
  }
  if (o.status === 429 && o.retryAfter && o.retryAfter.seconds <= run.ctx.windows.minuteSeconds + 1) {
    return o.serverMs + o.retryAfter.seconds * 1000;
  }
  return undefined;
}

/** Time a whole window's requests take, from the first exchange's duration, with room to spare. */
function neededMs(run: ProbeRun, o: Observation): number {
  const rtt = Math.max(1, o.receivedLocal - o.sentLocal);
  return (run.k.plan.perMinute + 2) * rtt * 3 + 300;
}

export async function findFreshWindow(run: ProbeRun, allowFirst = true): Promise<FreshWindow> {
  const minuteMs = run.ctx.windows.minuteSeconds * 1000;
  let o = await observe(run);
  let end = minuteEnd(run, o);
  if (end !== undefined && allowFirst && o.admitted && o.quota === 'minute' && o.rate!.remaining === o.rate!.limit - 1 && end - o.serverMs > Math.max(neededMs(run, o), minuteMs / 2)) {
    return { first: o, endMs: end };
  }
  // The headers do not report the minute window: spend the rest of it to learn its end from the 429.
  for (let i = 0; end === undefined && i <= run.k.plan.perMinute + 1; i++) {
    o = await observe(run);
    end = minuteEnd(run, o);
  }
  // Last resort (no Reset, no usable Retry-After): one full window length from here.
  end ??= o.serverMs + minuteMs;
  await sleepUntilServer(run.ctx, end);
  return { endMs: end + minuteMs };
}

/**
 * Counts admissions in one minute window from its start until the 429, sending at most limit+1 after
 * the window's first. Returns undefined when the window ended before the count did (slow target).
 */
export async function countWindow(run: ProbeRun, fresh: FreshWindow): Promise<WindowCount | undefined> {
  const { perMinute } = run.k.plan;
  const admitted = fresh.first ? [fresh.first] : [];
  let endMs = fresh.endMs;
  let firstReset = fresh.first?.quota === 'minute' ? fresh.first.rate?.reset : undefined;
  for (let i = 0; i <= perMinute + 1; i++) {
    const o = await observe(run);
    const oEnd = o.quota === 'minute' ? resetEndMs(run, o) : undefined;
    if (oEnd !== undefined && firstReset === undefined) {
      firstReset = o.rate!.reset;
      endMs = oEnd;
    } else if (oEnd !== undefined && o.rate!.reset !== firstReset) {
      if (o.serverMs >= endMs - SLACK_MS) return undefined; // the window rolled over mid-count
      run.f.fail('reset', `X-RateLimit-Reset moved from ${firstReset} to ${o.rate!.reset} within one window`, { exchange: o.ex, expected: firstReset, received: o.rate!.reset });
    } else if (oEnd === undefined && o.serverMs > endMs + SLACK_MS) return undefined;
    if (o.status === 429) return { admitted, rejected: o, over: false, endMs };
    admitted.push(o);
    if (admitted.length > perMinute) return { admitted, over: true, endMs };
  }
  return { admitted, over: true, endMs };
}

/** A fresh window counted whole: retried once when the window ended mid-count. */
export async function exhaustWindow(run: ProbeRun, allowFirst = true): Promise<WindowCount | undefined> {
  for (let attempt = 0; attempt < 2; attempt++) {
    const fresh = await findFreshWindow(run, allowFirst && attempt === 0);
    const count = await countWindow(run, fresh);
    if (count) return count;
  }
  return undefined;
}
