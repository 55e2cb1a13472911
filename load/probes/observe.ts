// One probe request: GET /pets?limit=1 (cheap, no writes) with the key; its headers are parsed and
// recorded as a sample. Judging what came back is response-judge.ts's, once the probe is over (run.ts).
import { fewest, most } from '../../core/extent.ts';
import { ConfigError } from '../../core/errors.ts';
import { joinUrl, type HttpRequest } from '../../core/exchange.ts';
import { DATE_SLACK_MS as SLACK_MS, RESET_ROUNDING_MS, parseRetryAfter, readRateLimit } from '../../spec/ratelimit.ts';
import type { ProbeRun, ProbeScope } from './context.ts';
import type { Observation, QuotaKind, Sent } from './observation.ts';
import type { Sample } from '../../report/model.ts';

export type { Observation, QuotaKind, Sent } from './observation.ts';

/** An answer the probes cannot interpret: the probe ends, and `fix` says what the service must change. */
export class ProbeStop extends Error {
  constructor(
    message: string,
    readonly fix: string,
  ) {
    super(message);
  }
}

export function quotaOf(limit: number | undefined, plan: { perMinute: number; perDay: number }): QuotaKind {
  if (limit === plan.perMinute) return 'minute';
  if (limit === plan.perDay) return 'day';
  return 'unknown';
}

/**
 * Local ms from the first send to the last answer of a set of requests: the longest the server can have
 * taken between any two of them. Concurrent answers come back in any order, so neither end is the set's
 * first or last element.
 */
export const localSpan = (all: readonly Observation[]): number =>
  all.length === 0 ? 0 : most(all.map((x) => x.receivedLocal)) - fewest(all.map((x) => x.sentLocal));

/** Server ms at which a 429's Retry-After says to come back, when it has one. */
export function retryAfterEndMs(o: Observation): number | undefined {
  return o.retryAfter ? o.serverMs + o.retryAfter.seconds * 1000 : undefined;
}

/** Retry-After reaches past `endMs` (server ms, with slack): the refusing quota is not the window ending then. */
export function retryAfterBeyond(o: Observation, endMs: number): boolean {
  const at = retryAfterEndMs(o);
  return at !== undefined && at > endMs + SLACK_MS;
}

/** Our ms at which the request left: once the 429 hold (send.ts) let it go, not when the probe asked. */
export const leftLocal = (o: Pick<Observation, 'sentLocal' | 'ex'>): number => o.sentLocal + (o.ex.heldMs ?? 0);

/** The server's ms at which the request left: its answer's, less the exchange's time from then on. */
export const leftServerMs = (o: Observation): number => o.serverMs - Math.max(0, o.receivedLocal - leftLocal(o));

/** Server ms at which the window the headers report ends, when Reset is a plausible Unix time (to the whole second, either way). */
export function resetEndMs(run: ProbeScope, o: Observation): number | undefined {
  if (!o.rate || o.quota === 'unknown') return undefined;
  const length = (o.quota === 'minute' ? run.ctx.windows.minuteSeconds : run.ctx.windows.daySeconds) * 1000;
  const end = o.rate.reset * 1000;
  // Whole-second rounding either way: a Reset rounded down names an end up to a second before the true one.
  // The server wrote Reset at some instant of the exchange and its Date (a proxy's, maybe) at a later one:
  // a window may end while the answer waits in a proxy, so the past is measured from when the request left.
  return end - leftServerMs(o) > -(SLACK_MS + RESET_ROUNDING_MS) &&
    end - o.serverMs <= length + SLACK_MS + RESET_ROUNDING_MS
    ? end
    : undefined;
}

/** GET /pets?limit=1 with the key: cheap, and no writes. Transport failures are the stack's (send.ts). */
const probeRequest = (run: ProbeRun): HttpRequest => ({
  method: 'GET',
  url: joinUrl(run.ctx.baseUrl, '/pets?limit=1'),
  headers: { authorization: `Bearer ${run.k.key}`, accept: 'application/json' },
});

/** Sends one probe request and records it; stops only when the answer cannot be interpreted at all. */
export async function sendProbe(run: ProbeRun): Promise<Sent> {
  const { ctx, k } = run;
  const sentLocal = ctx.clock.now();
  const ex = await ctx.send(probeRequest(run));
  const receivedLocal = ctx.clock.now();
  const headers = ex.response.headers;
  // The request left once the 429 hold let it (send.ts): a Date bounds the server's clock from then, not from when
  // the probe asked (a bound seconds too loose moves the clock's midpoint by half of it).
  ctx.serverClock.observe(leftLocal({ sentLocal, ex }), receivedLocal, headers);
  const status = ex.response.status;
  const parsed = readRateLimit(headers);
  const ra = status === 429 ? parseRetryAfter(headers) : undefined;
  const o: Observation = {
    ex,
    status,
    admitted: status >= 200 && status < 300,
    serverMs: ctx.serverClock.toServer(receivedLocal) ?? receivedLocal,
    sentLocal,
    receivedLocal,
    quota: quotaOf(parsed.ok ? parsed.value.limit : undefined, k.plan),
  };
  if (parsed.ok) o.rate = parsed.value;
  if (ra?.ok) o.retryAfter = ra.value;
  record(run, o);
  if (ctx.serverClock.toServer(receivedLocal) === undefined) {
    // Windows and Reset are judged on the server's clock; without any Date we would be judging ours.
    throw new ProbeStop(
      "the responses carry no Date header, so the server's clock is unknown and its windows cannot be judged " +
        '(RFC 9110 §6.6.1: an origin server with a clock sends Date)',
      'send a Date header on every response',
    );
  }
  if (status === 401 || status === 403)
    throw new ConfigError(`the API key for plan "${k.plan.name}" was refused with ${status}`, 'key');
  return { o, headers: parsed };
}

function record(run: ProbeRun, o: Observation): void {
  run.ctx.subjects[run.seriesName] ??= run.subject;
  const list = (run.ctx.series[run.seriesName] ??= []);
  const sample: (typeof list)[number] = { t: Math.round(o.serverMs), status: o.status };
  if (o.rate) Object.assign(sample, { limit: o.rate.limit, remaining: o.rate.remaining, reset: o.rate.reset });
  if (o.retryAfter) sample.retryAfter = o.retryAfter.seconds;
  list.push(sample);
  o.sample = sample;
}
