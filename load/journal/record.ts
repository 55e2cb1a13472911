// Records every exchange of a quota run's bare transport, for the journal (format.ts): the key replaced
// by its label, every header and body scrubbed of the run's keys, times on the run's clock.
import type { Clock } from '../../core/clock.ts';
import { TransportError } from '../../core/errors.ts';
import type { HttpRequest } from '../../core/exchange.ts';
import type { Layer } from '../../core/layer.ts';
import { redactHeaders, redactText } from '../../core/redact.ts';
import { BODY_CAP, type JournalEntry } from './format.ts';

export interface Recorder {
  /** Around the bare transport (inside every probe layer): it sees each try as the target did. */
  layer: Layer;
  /** The exchanges so far, in the order sent. */
  entries(): JournalEntry[];
}

/** The request's path and query under `baseUrl`, or its absolute URL when elsewhere. */
export const pathUnder = (baseUrl: string, url: string): string =>
  url.startsWith(baseUrl) && /^[/?]|^$/.test(url.slice(baseUrl.length)) ? url.slice(baseUrl.length) : url;

/** The label of the run's key a request carries, or null. */
export function labelOfRequest(request: HttpRequest, labels: ReadonlyMap<string, string>): string | null {
  const credential = /^\s*Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1];
  return credential === undefined ? null : (labels.get(credential) ?? null);
}

/** One order of everything that resumes the probes, answers and ends of waits counted together. */
export interface Events {
  next(): number;
}

export function eventCounter(): Events {
  let n = 0;
  return { next: () => ++n };
}

/** A wait's end: local ms after the run's start, and its place among the run's events. */
export type SleepEnd = [afterStartMs: number, event: number];

/**
 * The clock the probes read, taping every reading and when each wait (by the order asked) ended among
 * the answers: a replay shows the probes the same readings and resumes them in the same order
 * (replay.ts), so a decision taken on the millisecond (a count's span, a wait) is taken again.
 */
export function tapedClock(
  clock: Clock,
  events: Events,
  startMs: () => number,
): { clock: Clock; reads(): number[]; sleeps(): Array<SleepEnd | null> } {
  const reads: number[] = [];
  const sleeps: Array<SleepEnd | null> = [];
  return {
    clock: {
      now: () => {
        const t = clock.now();
        reads.push(t);
        return t;
      },
      sleep: async (ms) => {
        const i = sleeps.push(null) - 1;
        await clock.sleep(ms);
        sleeps[i] = [clock.now() - startMs(), events.next()];
      },
    },
    reads: () => [...reads],
    sleeps: () => [...sleeps],
  };
}

/** Readings as differences from the one before (the first from `startMs`): small numbers, for gzip. */
export const deltas = (reads: readonly number[], startMs: number): number[] =>
  reads.map((t, i) => t - (i === 0 ? startMs : reads[i - 1]!));

export function createRecorder(o: {
  clock: Clock;
  /** Shared with the taped clock: an answer's place among the run's events. */
  events: Events;
  baseUrl: string;
  /** API key → label. */
  labels: ReadonlyMap<string, string>;
}): Recorder {
  const secrets = [...o.labels.keys()];
  const entries: JournalEntry[] = [];
  let seq = 0;
  const layer: Layer = (next) => async (request) => {
    const sent = {
      seq: ++seq,
      key: labelOfRequest(request, o.labels),
      method: request.method,
      path: redactText(pathUnder(o.baseUrl, request.url), secrets),
    };
    const sentAt = o.clock.now();
    try {
      const exchange = await next(request);
      const { status, headers, body, truncated } = exchange.response;
      const cut = truncated === true || body.length > BODY_CAP;
      entries.push({
        ...sent,
        sentAt,
        answeredAt: Math.max(sentAt, o.clock.now()),
        arrived: o.events.next(),
        status,
        headers: redactHeaders(headers, secrets),
        body: redactText(body.slice(0, BODY_CAP), secrets),
        ...(cut ? { truncated: true } : {}),
      });
      return exchange;
    } catch (error) {
      if (error instanceof TransportError)
        entries.push({
          ...sent,
          sentAt,
          answeredAt: Math.max(sentAt, o.clock.now()),
          arrived: o.events.next(),
          error: { code: error.transport, message: redactText(error.message, secrets) },
        });
      throw error;
    }
  };
  // Numbered again in the order sent: an exchange that ended in an error of petcert's own has no entry.
  return { layer, entries: () => [...entries].sort((a, b) => a.seq - b.seq).map((e, i) => ({ ...e, seq: i + 1 })) };
}
