// Never hammer, read from a journal: a request sent on a key before an earlier-answered 429 of that key
// allowed. The 429's wait is read as a person reads it, apart from petcert's own parser (so a form petcert
// misreads shows here): whole or decimal seconds, or any date Date.parse names measured against that
// answer's own Date; 1 s when it names none (the hold's first backoff).
import type { JournalEntry } from '../../load/journal/format.ts';

export interface EarlySend {
  seq: number;
  key: string;
  /** How long before the 429's wait ended it was sent. */
  byMs: number;
  /** The 429 whose wait it broke. */
  after: number;
}

/** The wait a 429 asks in ms, read without petcert's parser. */
export function asksMs(headers: Record<string, string> = {}): number {
  const raw = headers['retry-after']?.trim();
  if (raw === undefined) return 1000;
  if (/^\d+(\.\d+)?$/.test(raw)) return Number(raw) * 1000;
  const ms = Date.parse(raw) - Date.parse(headers['date'] ?? '');
  return Number.isFinite(ms) ? ms : 1000;
}

/** Sends at the same millisecond as an answer count as before it: the journal cannot order them. */
export function earlySends(entries: readonly JournalEntry[]): EarlySend[] {
  const events = entries.flatMap((e) => [
    { at: e.sentAt, order: 0, e },
    ...(e.status === 429 ? [{ at: e.answeredAt, order: 1, e }] : []),
  ]);
  events.sort((a, b) => a.at - b.at || a.order - b.order);
  const until = new Map<string, { at: number; seq: number }>();
  const early: EarlySend[] = [];
  for (const { at, order, e } of events) {
    const key = e.key ?? '';
    const hold = until.get(key);
    if (order === 0 && hold && at < hold.at) early.push({ seq: e.seq, key, byMs: hold.at - at, after: hold.seq });
    if (order === 1 && (!hold || at + asksMs(e.headers) > hold.at))
      until.set(key, { at: at + asksMs(e.headers), seq: e.seq });
  }
  return early;
}
