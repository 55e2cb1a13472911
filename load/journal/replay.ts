// The transport and clock of a re-judged run, on a virtual clock (nothing really waits). Each request is
// answered by the next exchange of the journal not yet used with the same key label, method and path,
// when and in the order the live run's answer came; the clock shows the probes the live run's readings
// and ends their waits as the live run's ended. A request the journal has no answer for stops the probe
// asking it (its open checks unjudged, naming the request and the fix).
import type { Clock } from '../../core/clock.ts';
import type { VirtualClock } from '../../core/virtual-clock.ts';
import { TransportError } from '../../core/errors.ts';
import type { Send } from '../../core/exchange.ts';
import { VERSION } from '../../core/version.ts';
import { ProbeStop } from '../probes/observe.ts';
import type { Journal, JournalEntry } from './format.ts';
import { labelOfRequest, pathUnder } from './record.ts';

export interface Missing {
  key: string | null;
  method: string;
  path: string;
  /** Which request of that kind (1-based) found no answer, and how many of that kind the journal has. */
  nth: number;
  recorded: number;
  /** Set when the journal has that request but this petcert asks it this many ms later (or earlier, below 0) than the live run sent it. */
  offMs?: number;
}

export interface Replay {
  send: Send;
  /** Requests the journal had no answer for, in the order asked. */
  missing(): Missing[];
  /** Recorded exchanges no request asked for. */
  unused(): number;
}

export const REJUDGE_FIX = `re-record the journal with this petcert version (${VERSION}): run petcert quota live again`;

export const describeMissing = (m: Missing): string =>
  m.offMs === undefined
    ? `the journal has no answer for request ${m.nth} of key ${m.key ?? '(none)'} ${m.method} ${m.path}` +
      ` (it recorded ${m.recorded}): it ends early, or this petcert sends differently from the one that recorded it`
    : `request ${m.nth} of key ${m.key ?? '(none)'} ${m.method} ${m.path} is sent ${(Math.abs(m.offMs) / 1000).toFixed(1)} s ` +
      `${m.offMs > 0 ? 'later' : 'earlier'} than the live run sent it: this petcert paces differently from the one ` +
      'that recorded it, and the recorded answer belongs to another moment';

const kindOf = (key: string | null, method: string, path: string): string => JSON.stringify([key, method, path]);

/**
 * How far past the replay's own time a recorded reading or wait's end may lie and still be used: the live
 * run read its clock late, and woke late, when its event loop was busy (a burst's answers arriving).
 */
export const RECORDED_LATE_MS = 1000;
/** And how far before it (a reading made while the replay's clock already stood at a later event). */
const RECORDED_EARLY_MS = 50;

const fits = (recorded: number, t: number): boolean =>
  recorded >= t - RECORDED_EARLY_MS && recorded <= t + RECORDED_LATE_MS;

/**
 * The clock the re-judged probes read. Its readings are the recorded ones in order, each moving the
 * virtual clock on to it, and its waits end when and in the order the recorded ones did (among the
 * answers, replayTransport): the same probes are resumed in the same order and shown the same times. From
 * the first reading or wait that does not fit (the probes wait or read the clock differently now), the
 * virtual clock alone: its own time, each wait its length.
 */
export function replayClock(
  virtual: VirtualClock,
  header: Pick<Journal['header'], 'startMs' | 'clockReads' | 'clockSleeps'>,
): { clock: Clock; shown(): number; followed(): boolean } {
  const reads: number[] = [];
  let at = header.startMs;
  for (const d of header.clockReads ?? []) reads.push((at += d));
  const sleeps = header.clockSleeps ?? [];
  let next = 0;
  let last = Number.NEGATIVE_INFINITY;
  let readsDiverged = false;
  let slept = 0;
  let sleepsDiverged = false;
  return {
    clock: {
      now: () => {
        const t = virtual.now();
        const recorded = reads[next];
        if (readsDiverged || recorded === undefined || recorded < last || !fits(recorded, t)) {
          readsDiverged = recorded !== undefined;
          return Math.max(t, last);
        }
        next += 1;
        last = recorded;
        virtual.advance(recorded);
        return recorded;
      },
      sleep: (ms) => {
        const t = virtual.now();
        const recorded = sleeps[slept++];
        const end = recorded ? header.startMs + recorded[0] : undefined;
        if (sleepsDiverged || end === undefined || !fits(end, t + ms)) {
          sleepsDiverged = true;
          return virtual.sleep(ms);
        }
        return virtual.sleepUntil(end, recorded![1]);
      },
    },
    shown: () => next,
    followed: () => !readsDiverged && !sleepsDiverged,
  };
}

export function replayTransport(
  journal: Journal,
  clock: VirtualClock,
  /** API key → label, for the keys the re-judged run sends with. */
  labels: ReadonlyMap<string, string>,
): Replay {
  const baseUrl = journal.header.baseUrl;
  const queues = new Map<string, { entries: JournalEntry[]; asked: number }>();
  for (const e of journal.entries) {
    const kind = kindOf(e.key, e.method, e.path);
    const q = queues.get(kind) ?? { entries: [], asked: 0 };
    q.entries.push(e);
    queues.set(kind, q);
  }
  const missing: Missing[] = [];
  let used = 0;
  const send: Send = async (request) => {
    const key = labelOfRequest(request, labels);
    const path = pathUnder(baseUrl, request.url);
    const kind = kindOf(key, request.method, path);
    const q = queues.get(kind) ?? { entries: [], asked: 0 };
    queues.set(kind, q);
    const nth = ++q.asked;
    const entry = q.entries[nth - 1];
    const stop = (offMs?: number): never => {
      const m = {
        key,
        method: request.method,
        path,
        nth,
        recorded: q.entries.length,
        ...(offMs === undefined ? {} : { offMs }),
      };
      missing.push(m);
      throw new ProbeStop(describeMissing(m), REJUDGE_FIX);
    };
    if (!entry) return stop();
    // An answer stands for the moment the live run sent its request: asked at another moment, it is no evidence.
    const t = clock.now();
    if (Math.abs(t - entry.sentAt) > RECORDED_LATE_MS) stop(t - entry.sentAt);
    used++;
    // Sent no later than recorded: answered when it was, in its place among the events; later, its latency later.
    const sentAt = Math.max(t, entry.sentAt);
    await clock.sleepUntil(sentAt + entry.answeredAt - entry.sentAt, entry.arrived);
    if (entry.error) throw new TransportError(entry.error.code, entry.error.message);
    return {
      request,
      response: {
        status: entry.status!,
        headers: { ...entry.headers! },
        body: entry.body!,
        ...(entry.truncated ? { truncated: true } : {}),
      },
      sentAt,
      durationMs: clock.now() - sentAt,
    };
  };
  return { send, missing: () => [...missing], unused: () => journal.entries.length - used };
}
