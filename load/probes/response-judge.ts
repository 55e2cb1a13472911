// Rules on every probe response, apart from sending it: §8.2's headers (present, valid, the plan's
// figure, a plausible Reset) and a status the probes can interpret (200, or 429 over the limit).
// request.ts judges each response by RESPONSE_RULES as it comes back, into its key's ledger.
import { isWholeSeconds, type RateLimitRead, type RateLimitState } from '../../spec/ratelimit.ts';
import type { Sample } from '../../report/model.ts';
import { RATE_LIMIT_HEADERS } from '../../spec/contract.ts';
import { verdict } from '../../report/check.ts';
import { scopeOf, type ProbeRun, type ProbeScope } from './context.ts';
import { failure, rule, silent, type ProbeRule } from './findings.ts';
import { earlierWindowWithRoom } from './window-edge.ts';
import { resetEndMs, type Observation } from './observe.ts';

/** One probe response, its headers as read, and the plan and windows it is judged against. */
export interface ProbeResponse {
  scope: ProbeScope;
  o: Observation;
  headers: RateLimitRead;
  /**
   * Remaining = Limit on an admitted answer whose request may have been counted in an earlier window of this
   * key that still had room, and answered after it ended (window-edge.ts: slowapi). More than Limit never is.
   */
  pastItsWindow: boolean;
  /**
   * Judged once the run is over (`judgeHeld`): on the server's clock as every Date of the run tells it.
   * Before, a Reset that looks out of its window is held, never failed (`heldReset`).
   */
  last?: boolean;
}

/** Per key: how far each of its series was read, and one admitted sample with room per window (Limit, Reset). */
interface RoomIndex {
  read: Map<readonly Sample[], number>;
  roomy: Map<string, Sample>;
}
const ROOM = new WeakMap<ProbeRun['ctx'], Map<string, RoomIndex>>();

/**
 * This key's admitted answers that left room, one per window: all earlierWindowWithRoom needs. Read
 * incrementally, because a server whose Remaining never counts down answers every request with
 * Remaining = Limit, and a scan of every sample per answer is quadratic over a day probe (100,000 requests
 * for a business key).
 */
function roomyWindows(run: ProbeRun): Sample[] {
  const byKey = ROOM.get(run.ctx) ?? new Map<string, RoomIndex>();
  ROOM.set(run.ctx, byKey);
  const index = byKey.get(run.subject.key) ?? { read: new Map(), roomy: new Map() };
  byKey.set(run.subject.key, index);
  for (const [name, list] of Object.entries(run.ctx.series)) {
    if (run.ctx.subjects[name]?.key !== run.subject.key) continue;
    for (let i = index.read.get(list) ?? 0; i < list.length; i++) {
      const s = list[i]!;
      const window = `${s.limit}:${s.reset}`;
      if (s.status >= 200 && s.status < 300 && (s.remaining ?? 0) >= 1 && !index.roomy.has(window))
        index.roomy.set(window, s);
    }
    index.read.set(list, list.length);
  }
  return [...index.roomy.values()];
}

function answeredPastItsWindow(run: ProbeRun, o: Observation, rate: RateLimitState | undefined): boolean {
  if (!rate || rate.remaining !== rate.limit) return false;
  const answer = { sentLocal: o.sentLocal, limit: rate.limit, reset: rate.reset, sample: o.sample };
  return (
    earlierWindowWithRoom(answer, roomyWindows(run), (serverMs) => run.ctx.serverClock.toLocalNotBefore(serverMs)) !==
    undefined
  );
}

/**
 * The response as its rules see it: what came back (its headers as sendProbe read them), and what this
 * key's samples then say of its window.
 */
export function responseOf(run: ProbeRun, o: Observation, headers: RateLimitRead): ProbeResponse {
  return {
    scope: scopeOf(run),
    o,
    headers,
    pastItsWindow: answeredPastItsWindow(run, o, headers.ok ? headers.value : undefined),
  };
}

/** 200, or 429 over the limit: anything else, the probe for this key cannot interpret and stops (request.ts). */
export const interpretable = (o: Observation): boolean => o.admitted || o.status === 429;

/** The header rules beyond validity speak only of valid headers. */
const valid = (r: ProbeResponse): RateLimitState | undefined => (r.headers.ok ? r.headers.value : undefined);

const headersValid = rule<ProbeResponse>('headersValid', ({ o, headers }) =>
  headers.ok ? verdict.pass : failure(headers.problem, { exchange: o.ex }),
);

const resetInteger = rule<ProbeResponse>('resetInteger', (r) => {
  const reset = r.o.ex.response.headers[RATE_LIMIT_HEADERS.reset];
  if (!valid(r)) return silent;
  if (isWholeSeconds(reset)) return verdict.pass;
  return failure(
    `X-RateLimit-Reset ${JSON.stringify(reset)} is not in whole seconds (read as a Unix timestamp all the same)`,
    { exchange: r.o.ex },
  );
});

const limit = rule<ProbeResponse>('limit', (r) => {
  const v = valid(r);
  if (!v) return silent;
  if (r.o.quota !== 'unknown') return verdict.pass;
  const { plan } = r.scope.k;
  return failure(
    `X-RateLimit-Limit is ${v.limit}, neither the plan's ${plan.perMinute}/minute nor ${plan.perDay}/day`,
    {
      exchange: r.o.ex,
      expected: [plan.perMinute, plan.perDay],
      received: v.limit,
    },
  );
});

/** An admitted request counts against the quota it reports (any model): at most Limit - 1 can remain. */
const remainingCounted = rule<ProbeResponse>('remaining', (r) => {
  const v = valid(r);
  if (!v || !r.o.admitted || r.o.quota === 'unknown' || v.remaining < v.limit || r.pastItsWindow) return silent;
  return failure(
    `an admitted request's answer reports Remaining ${v.remaining} of a Limit of ${v.limit}: the request itself was not counted`,
    {
      exchange: r.o.ex,
      expected: `≤ ${v.limit - 1}`,
      received: v.remaining,
    },
  );
});

const reset = rule<ProbeResponse>('reset', (r) => {
  const v = valid(r);
  const { o, scope } = r;
  if (!v || o.quota === 'unknown') return silent;
  if (resetEndMs(scope, o) !== undefined) return verdict.pass;
  if (!r.last && heldAhead(r)) return silent;
  const length = o.quota === 'minute' ? scope.ctx.windows.minuteSeconds : scope.ctx.windows.daySeconds;
  const nowS = Math.round(o.serverMs / 1000);
  const what = `X-RateLimit-Reset ${v.reset} is not a Unix time (s) within the ${length} s ${o.quota} window`;
  const took = Math.round(o.receivedLocal - o.sentLocal);
  return failure(`${what} from the server's Date (${nowS}; answered ${took} ms after it was sent)`, {
    exchange: o.ex,
    expected: `${nowS}..${nowS + length}`,
    received: v.reset,
  });
});

const status = rule<ProbeResponse>('status', ({ o }) =>
  interpretable(o)
    ? verdict.pass
    : failure(`GET /pets?limit=1 answered ${o.status}`, { exchange: o.ex, expected: '200 or 429', received: o.status }),
);

/** In the order they were judged before rules (the failure cap keeps the first findings of a cause). */
export const RESPONSE_RULES: readonly ProbeRule<ProbeResponse>[] = [
  headersValid,
  resetInteger,
  limit,
  remainingCounted,
  reset,
  status,
];

/**
 * A Reset further ahead than its window on the server's clock as the Dates so far tell it: held until the
 * run is over, because the freshest Date, the tightest bound on that clock, may come later. A framework's
 * cached Date (uvicorn's, re-formatted every few seconds when its CPU is starved) can lag by seconds for a
 * whole stretch of answers: no Date of them says how stale it is; a fresher one later does (spec/ratelimit.ts).
 * A Reset already past is failed at once: a stale Date only makes the server's clock read early.
 */
const heldAhead = (r: ProbeResponse): boolean => valid(r)!.reset * 1000 > r.o.serverMs;

/** Per key (its findings) and window (quota and Reset): the window's first answer, the one furthest from its Reset. */
type Held = Map<ProbeRun['f'], Map<string, ProbeResponse>>;
const HELD = new WeakMap<ProbeRun['ctx'], Held>();

export function holdReset(run: ProbeRun, r: ProbeResponse): void {
  const v = valid(r);
  if (!v || r.o.quota === 'unknown' || resetEndMs(r.scope, r.o) !== undefined || !heldAhead(r)) return;
  const held = HELD.get(run.ctx) ?? new Map<ProbeRun['f'], Map<string, ProbeResponse>>();
  HELD.set(run.ctx, held);
  const windows = held.get(run.f) ?? new Map<string, ProbeResponse>();
  held.set(run.f, windows);
  // One answer per window: a server whose every Reset is wrong keeps as many as it has windows, not answers.
  const window = `${r.o.quota}:${v.reset}`;
  if (!windows.has(window)) windows.set(window, r);
}

/** The held Resets, judged on the server's clock as the whole run's Dates tell it (run.ts, at the end). */
export function judgeHeld(ctx: ProbeRun['ctx']): void {
  for (const [f, windows] of HELD.get(ctx) ?? []) {
    for (const r of windows.values()) {
      const serverMs = ctx.serverClock.toServer(r.o.receivedLocal) ?? r.o.serverMs;
      f.judge([reset], { ...r, o: { ...r.o, serverMs }, last: true });
    }
  }
  HELD.delete(ctx);
}
