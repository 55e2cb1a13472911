// Reading §8.2 headers, Retry-After (§7, RFC 9110 §10.2.3) and the server's Date (RFC 9110 §6.6.1).
// Pure: the same parsing runs in Node and in k6. Rate-limit logic works in *server* time: local time
// plus an offset measured from Date headers, never our clock alone.
import type { Headers } from '../core/exchange.ts';
import { RATE_LIMIT_HEADERS } from './contract.ts';

/**
 * Slack on every comparison with the server's clock: Date has one-second resolution, Reset is a whole
 * second, and a window may end while the response is on the wire. One figure for every engine.
 */
export const DATE_SLACK_MS = 1500;

/**
 * How much later than the window's end a Reset may read: whole seconds rounded up (express-rate-limit's
 * Math.ceil of a window opened at any instant), or one second added (slowapi: the limits library's
 * expiry + 1). Early is never allowed beyond DATE_SLACK_MS.
 */
export const RESET_ROUNDING_MS = 1000;

export interface RateLimitState {
  limit: number;
  remaining: number;
  /** Unix seconds (may carry a fraction: parseUnixTime). */
  reset: number;
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; problem: string };

/** A non-negative decimal integer with nothing else around it: "60", not "60.0", "6e1", " 60" or "-1". */
export function parseHeaderInt(value: string | undefined): number | undefined {
  if (value === undefined || !/^[0-9]{1,16}$/.test(value.trim())) return undefined;
  return Number(value.trim());
}

/**
 * §8.2's Reset is a "Unix timestamp": whole seconds by custom, but the spec does not say integer, and
 * libraries send fractions (slowapi: `1795501051.808396`). A non-negative decimal number is a timestamp
 * (its form is a SHOULD finding, `isWholeSeconds`); anything else is not.
 */
export function parseUnixTime(value: string | undefined): number | undefined {
  if (value === undefined || !/^[0-9]{1,16}(\.[0-9]{1,9})?$/.test(value.trim())) return undefined;
  return Number(value.trim());
}

/** Reset in whole seconds, the form clients and the IETF draft read (SHOULD; a fraction still parses). */
export const isWholeSeconds = (value: string | undefined): boolean => parseHeaderInt(value) !== undefined;

/** X-RateLimit-* as read: the state, or what is wrong with the headers. */
export type RateLimitRead = Parsed<RateLimitState>;

export function readRateLimit(headers: Headers): RateLimitRead {
  const problems: string[] = [];
  const read = (name: string, parse: (v: string | undefined) => number | undefined, what: string): number => {
    const raw = headers[name];
    const n = parse(raw);
    if (raw === undefined) problems.push(`${name} is missing`);
    else if (n === undefined) problems.push(`${name} is not ${what}: ${JSON.stringify(raw)}`);
    return n ?? NaN;
  };
  const value = {
    limit: read(RATE_LIMIT_HEADERS.limit, parseHeaderInt, 'a non-negative integer'),
    remaining: read(RATE_LIMIT_HEADERS.remaining, parseHeaderInt, 'a non-negative integer'),
    reset: read(RATE_LIMIT_HEADERS.reset, parseUnixTime, 'a Unix timestamp (non-negative seconds)'),
  };
  return problems.length ? { ok: false, problem: problems.join('; ') } : { ok: true, value };
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** IMF-fixdate's layout and its zone: GMT (an HTTP-date), or UTC, UT, Z or a numeric offset (RFC 5322). */
const IMF_LAYOUT =
  /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), (\d{2}) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) (\d{4}) (\d{2}):(\d{2}):(\d{2}) (GMT|UTC|UT|Z|[+-]\d{4})$/;

/** A date in IMF-fixdate's layout, in ms since the epoch, and the zone it was written in. No named groups: k6's runtime. */
function imfLayout(value: string): { ms: number; zone: string } | undefined {
  const m = IMF_LAYOUT.exec(value.trim());
  if (!m) return undefined;
  const zone = m[8]!;
  const sign = zone[0] === '-' ? -1 : 1;
  const offsetMin = /^[+-]/.test(zone) ? sign * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(3))) : 0;
  const [hh, mm, ss] = [Number(m[5]), Number(m[6]), Number(m[7])];
  const ms = Date.UTC(Number(m[4]), MONTHS.indexOf(m[3]!), Number(m[2]), hh, mm, ss) - offsetMin * 60_000;
  return Number.isFinite(ms) ? { ms, zone } : undefined;
}

/**
 * An HTTP-date in ms since the epoch. IMF-fixdate is parsed exactly; the two obsolete forms RFC 9110
 * says recipients must accept (RFC 850, asctime) go through Date.parse.
 */
export function parseHttpDate(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  const imf = imfLayout(text);
  if (imf) return imf.zone === 'GMT' ? imf.ms : undefined;
  if (
    /^[A-Za-z]+, \d{2}-[A-Za-z]{3}-\d{2} \d{2}:\d{2}:\d{2} GMT$/.test(text) ||
    /^[A-Za-z]{3} [A-Za-z]{3} [ \d]\d \d{2}:\d{2}:\d{2} \d{4}$/.test(text)
  ) {
    const ms = Date.parse(/GMT$/.test(text) ? text : `${text} GMT`);
    return Number.isFinite(ms) ? ms : undefined;
  }
  return undefined;
}

/**
 * IMF-fixdate's layout with another zone than GMT, in ms since the epoch: "UTC" (Go's time.RFC1123 in UTC,
 * what sethvargo/go-limiter writes), "UT", "Z" or a numeric offset (RFC 5322, Go's RFC1123Z). Not an
 * HTTP-date, but it names one instant.
 */
export function parseZonedDate(value: string): number | undefined {
  const imf = imfLayout(value);
  return imf && imf.zone !== 'GMT' ? imf.ms : undefined;
}

/** The server's clock at the response, from its Date header, in ms. */
export function serverDateMs(headers: Headers): number | undefined {
  return parseHttpDate(headers['date']);
}

export interface RetryAfter {
  /** Seconds to wait, from the server's point of view (may be fractional for HTTP-dates: never). */
  seconds: number;
  /**
   * RFC 9110 §10.2.3's two forms, a decimal number of seconds (rate-limiter-flexible's README sets
   * `msBeforeNext / 1000`) or a date in IMF-fixdate's layout with another zone than GMT (`parseZonedDate`):
   * not RFC syntax, but §7 and §8.3 only ask for "the time given in the Retry-After header", which they
   * give. Their form is a SHOULD finding (`isRfcRetryAfter`), never a missing header, and the 429 hold
   * waits what they ask.
   */
  form: 'delay-seconds' | 'http-date' | 'decimal-seconds' | 'zoned-date';
  raw: string;
  /** A date's forms: how far the instant it names lies past the response's Date, in ms (negative: before it). */
  aheadMs?: number;
}

/** The forms RFC 9110 §10.2.3 defines: delay-seconds (a whole number) and an HTTP-date. */
export const isRfcRetryAfter = (r: RetryAfter): boolean => r.form === 'delay-seconds' || r.form === 'http-date';

const NOT_RFC_FORM = {
  'decimal-seconds': 'a decimal number of seconds, neither delay-seconds (RFC 9110: digits only) nor an HTTP-date',
  'zoned-date': 'a date whose zone is not GMT, not an HTTP-date (RFC 9110: IMF-fixdate ends in GMT)',
} as const;

/** What is outside RFC 9110 in a readable Retry-After, or undefined for its own two forms. */
export function retryAfterFormProblem(r: RetryAfter): string | undefined {
  if (isRfcRetryAfter(r)) return undefined;
  const form = NOT_RFC_FORM[r.form as keyof typeof NOT_RFC_FORM];
  return `Retry-After ${JSON.stringify(r.raw)} is ${form}; read as ${r.seconds} s`;
}

/**
 * Retry-After as delay-seconds or an HTTP-date (or a decimal number of seconds: see `RetryAfter.form`). An HTTP-date is converted to a delay against the
 * server's own Date header when there is one (RFC 9110 §10.2.3), so clock skew does not matter.
 */
export function parseRetryAfter(headers: Headers): Parsed<RetryAfter> {
  const raw = headers[RATE_LIMIT_HEADERS.retryAfter];
  if (raw === undefined) return { ok: false, problem: 'Retry-After is missing' };
  const seconds = parseHeaderInt(raw);
  if (seconds !== undefined) return { ok: true, value: { seconds, form: 'delay-seconds', raw } };
  if (/^[0-9]{1,16}\.[0-9]{1,20}$/.test(raw.trim()))
    return { ok: true, value: { seconds: Number(raw.trim()), form: 'decimal-seconds', raw } };
  const httpDate = parseHttpDate(raw);
  const at = httpDate ?? parseZonedDate(raw);
  if (at === undefined)
    return { ok: false, problem: `Retry-After is neither delay-seconds nor an HTTP-date: ${JSON.stringify(raw)}` };
  const now = serverDateMs(headers);
  if (now === undefined)
    return {
      ok: false,
      problem: 'Retry-After is a date but the response has no valid Date header to measure it from',
    };
  const form = httpDate === undefined ? 'zoned-date' : 'http-date';
  const aheadMs = at - now;
  return { ok: true, value: { seconds: Math.max(0, Math.ceil(aheadMs / 1000)), form, raw, aheadMs } };
}

/**
 * A dated Retry-After names a whole second: one that equals the response's Date asks for a wait within that
 * second (read as 0 s), not for none, and a Date a proxy writes from its own clock may run up to DATE_SLACK_MS
 * ahead of the limiter's. False for the seconds forms, and for a date before that.
 */
export const namesDateSecond = (r: RetryAfter): boolean => r.aheadMs !== undefined && r.aheadMs + DATE_SLACK_MS >= 0;

/** Milliseconds a response's Retry-After asks the client to wait, when it is readable (the 429 hold's reading). */
export function retryAfterMs(headers: Headers): number | undefined {
  const read = parseRetryAfter(headers);
  return read.ok ? read.value.seconds * 1000 : undefined;
}

/**
 * Estimates server time from local time. Date has one-second resolution, so one sample bounds the
 * offset within a second; keeping the tightest bounds over many samples narrows it.
 */
export interface ServerClock {
  /**
   * Adds an observation: local ms when the request left (after any wait of the client's own before it) and when the
   * response arrived, and its Date header.
   */
  observe(sentAtLocal: number, receivedAtLocal: number, headers: Headers): void;
  /** Best estimate of server ms at a local ms, or undefined before any observation. */
  toServer(localMs: number): number | undefined;
  /** Local ms at which the server's clock reads `serverMs` (latest-possible estimate, for safe waiting). */
  toLocalNotBefore(serverMs: number): number | undefined;
}

/**
 * How stale a framework's cached Date usually is: uvicorn and nginx re-format it once a second, so up to a
 * second on an idle server (under CPU starvation uvicorn's lags by seconds: the server clock below assumes
 * no bound; conform's ratelimit.countdown reads a fresh window's Reset against one answer's Date with it).
 */
export const DATE_CACHE_MS = 1000;

/**
 * offset = server − local. Every answer bounds it from below: the server stamped its Date no later than
 * our receive, floored to the second, and a framework may have cached it for longer still (uvicorn
 * re-formats it on a timer, once a second when idle and every two or three under CPU starvation), which
 * only lowers it. So `low`, the freshest Date seen against our receive times, is never wrong, whatever
 * the staleness. From above only a fresh Date bounds it (date + 1 s − send): a Date whose bound lies
 * under `low` lagged the freshest evidence by more than its resolution: stale, not a clock set back, and
 * it says nothing. `fresh` is the tightest upper bound of the answers not shown stale so far (when a
 * fresher Date shows it stale, that Date's own bound takes its place). No bound on staleness is assumed.
 */
export function createServerClock(): ServerClock {
  let low = -Infinity;
  let fresh = Infinity;
  return {
    observe(sentAtLocal, receivedAtLocal, headers) {
      const date = serverDateMs(headers);
      if (date === undefined) return;
      const sampleLow = date - receivedAtLocal;
      const sampleFresh = date + 1000 - sentAtLocal;
      if (sampleLow > low) {
        low = sampleLow;
        if (fresh < low) fresh = sampleFresh;
      }
      if (sampleFresh >= low) fresh = Math.min(fresh, sampleFresh);
    },
    toServer(localMs) {
      if (!Number.isFinite(low)) return undefined;
      return localMs + (low + fresh) / 2;
    },
    toLocalNotBefore(serverMs) {
      if (!Number.isFinite(low)) return undefined;
      return serverMs - low;
    },
  };
}
