// Verdicts on every probe response, apart from sending it: §8.2's headers (present, valid, the plan's
// figure, a plausible Reset) and a status the probes can interpret (200, or 429 over the limit).
import { isWholeSeconds, readRateLimit, type RateLimitState } from '../../spec/ratelimit.ts';
import { RATE_LIMIT_HEADERS } from '../../spec/contract.ts';
import { keySamples, type ProbeRun } from './context.ts';
import { earlierWindowWithRoom } from './window-edge.ts';
import { ProbeStop, resetEndMs, type Observation } from './observe.ts';

/**
 * Remaining = Limit on an admitted answer whose request may have been counted in an earlier window of this
 * key that still had room, and answered after it ended (window-edge.ts: slowapi). More than Limit never is.
 */
function answeredPastItsWindow(run: ProbeRun, o: Observation, rate: RateLimitState): boolean {
  if (rate.remaining !== rate.limit) return false;
  const answer = { sentLocal: o.sentLocal, limit: rate.limit, reset: rate.reset, sample: o.sample };
  return earlierWindowWithRoom(answer, keySamples(run), (serverMs) => run.ctx.serverClock.toLocalNotBefore(serverMs)) !== undefined;
}

export function judgeResponse(run: ProbeRun, o: Observation): void {
  judgeHeaders(run, o);
  if (!o.admitted && o.status !== 429) {
    run.f.fail('status', `GET /pets?limit=1 answered ${o.status}`, { exchange: o.ex, expected: '200 or 429', received: o.status });
    throw new ProbeStop(`unexpected status ${o.status}`);
  }
  run.f.pass('status');
}

function judgeHeaders(run: ProbeRun, o: Observation): void {
  const { f, k } = run;
  const parsed = readRateLimit(o.ex.response.headers);
  if (!parsed.ok) {
    f.fail('headersValid', parsed.problem, { exchange: o.ex });
    return;
  }
  f.pass('headersValid');
  const reset = o.ex.response.headers[RATE_LIMIT_HEADERS.reset];
  if (isWholeSeconds(reset)) f.pass('resetInteger');
  else f.fail('resetInteger', `X-RateLimit-Reset ${JSON.stringify(reset)} is not in whole seconds (read as a Unix timestamp all the same)`, { exchange: o.ex });
  if (o.quota === 'unknown') {
    f.fail('limit', `X-RateLimit-Limit is ${parsed.value.limit}, neither the plan's ${k.plan.perMinute}/minute nor ${k.plan.perDay}/day`, {
      exchange: o.ex,
      expected: [k.plan.perMinute, k.plan.perDay],
      received: parsed.value.limit,
    });
  } else f.pass('limit');
  if (o.admitted && o.quota !== 'unknown' && parsed.value.remaining >= parsed.value.limit && !answeredPastItsWindow(run, o, parsed.value)) {
    // An admitted request counts against the quota it reports (any model): at most Limit - 1 can remain.
    f.fail('remaining', `an admitted request's answer reports Remaining ${parsed.value.remaining} of a Limit of ${parsed.value.limit}: the request itself was not counted`, {
      exchange: o.ex, expected: `≤ ${parsed.value.limit - 1}`, received: parsed.value.remaining,
    });
  }
  if (o.quota !== 'unknown' && resetEndMs(run, o) === undefined) {
    const length = o.quota === 'minute' ? run.ctx.windows.minuteSeconds : run.ctx.windows.daySeconds;
    f.fail('reset', `X-RateLimit-Reset ${parsed.value.reset} is not a Unix time (s) within the ${length} s ${o.quota} window from the server's Date (${Math.round(o.serverMs / 1000)})`, {
      exchange: o.ex,
      expected: `${Math.round(o.serverMs / 1000)}..${Math.round(o.serverMs / 1000) + length}`,
      received: parsed.value.reset,
    });
  } else if (o.quota !== 'unknown') f.pass('reset');
}

