// Rules on every probe response, apart from sending it: §8.2's headers (present, valid, the plan's
// figure, a plausible Reset) and a status the probes can interpret (200, or 429 over the limit).
// A probe collects its answers (request.ts); run.ts judges them here by RESPONSE_RULES once the probe is
// over, in the order they came, into the key's ledger.
import { isWholeSeconds, type RateLimitRead, type RateLimitState } from '../../spec/ratelimit.ts';
import type { Sample } from '../../report/model.ts';
import { RATE_LIMIT_HEADERS } from '../../spec/contract.ts';
import { verdict } from '../../report/check.ts';
import { scopeOf, type ProbeRun, type ProbeScope } from './context.ts';
import { failure, rule, silent, type Findings, type ProbeRule } from './findings.ts';
import { earlierWindowWithRoom } from './window-edge.ts';
import { resetEndMs } from './observe.ts';
import type { Observation, Sent } from './observation.ts';

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

/**
 * One key's response judging across its probes (run.ts makes one per key): one admitted answer with room per
 * window (Limit, Reset), all earlierWindowWithRoom needs (a server whose Remaining never counts down answers
 * every request with Remaining = Limit: a scan of every answer per answer is quadratic over a day probe), and
 * the Resets held to the run's end, one per findings and window.
 */
export interface KeyResponses {
  roomy: Map<string, Sample>;
  held: Map<Findings, Map<string, ProbeResponse>>;
}

export const keyResponses = (): KeyResponses => ({ roomy: new Map(), held: new Map() });

function addRoom(key: KeyResponses, s: Sample | undefined): void {
  if (!s || s.status < 200 || s.status >= 300 || (s.remaining ?? 0) < 1) return;
  const window = `${s.limit}:${s.reset}`;
  if (!key.roomy.has(window)) key.roomy.set(window, s);
}

function answeredPastItsWindow(
  run: ProbeRun,
  key: KeyResponses,
  o: Observation,
  rate: RateLimitState | undefined,
): boolean {
  if (!rate || rate.remaining !== rate.limit) return false;
  const answer = { sentLocal: o.sentLocal, limit: rate.limit, reset: rate.reset, sample: o.sample };
  const toLocal = (serverMs: number): number | undefined => run.ctx.serverClock.toLocalNotBefore(serverMs);
  return earlierWindowWithRoom(answer, [...key.roomy.values()], toLocal) !== undefined;
}

/**
 * The response as its rules see it: what came back (its headers as sendProbe read them), and what this
 * key's samples then say of its window.
 */
function responseOf(run: ProbeRun, key: KeyResponses, { o, headers }: Sent): ProbeResponse {
  return {
    scope: scopeOf(run),
    o,
    headers,
    pastItsWindow: answeredPastItsWindow(run, key, o, headers.ok ? headers.value : undefined),
  };
}

/**
 * A probe's answers, judged in the order they came into its findings: each against what the key's answers up
 * to it (this probe's and its earlier probes') say of its window. Called once per probe, when it is over.
 */
export function judgeResponses(run: ProbeRun, key: KeyResponses): void {
  for (const sent of run.answers) {
    addRoom(key, sent.o.sample);
    const response = responseOf(run, key, sent);
    run.f.judge(RESPONSE_RULES, response);
    holdReset(key, run.f, response);
  }
  run.answers.length = 0;
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

function holdReset(key: KeyResponses, f: Findings, r: ProbeResponse): void {
  const v = valid(r);
  if (!v || r.o.quota === 'unknown' || resetEndMs(r.scope, r.o) !== undefined || !heldAhead(r)) return;
  const windows = key.held.get(f) ?? new Map<string, ProbeResponse>();
  key.held.set(f, windows);
  // One answer per window: a server whose every Reset is wrong keeps as many as it has windows, not answers.
  const window = `${r.o.quota}:${v.reset}`;
  if (!windows.has(window)) windows.set(window, r);
}

/** The held Resets, judged on the server's clock as the whole run's Dates tell it (run.ts, at the end). */
export function judgeHeld(ctx: ProbeRun['ctx'], keys: readonly KeyResponses[]): void {
  for (const key of keys) {
    for (const [f, windows] of key.held) {
      for (const r of windows.values()) {
        const serverMs = ctx.serverClock.toServer(r.o.receivedLocal) ?? r.o.serverMs;
        f.judge([reset], { ...r, o: { ...r.o, serverMs }, last: true });
      }
    }
    key.held.clear();
  }
}
