// What a transport beneath the 429 hold saw, in order, and the two properties never-hammer tests read
// from it (core/hold-429.test.ts over scripted limiters, load/probes/never-hammer.test.ts over the probes).
import type { Exchange, Send } from '../../core/exchange.ts';

export interface Logged {
  kind: 'send' | 'answer';
  key: string;
  at: number;
  status?: number;
  /** What the answer's Retry-After asks, in ms, when readable. */
  asks?: number;
}

/** The transport `send`, logging each request as it goes and each answer as it comes back. */
export function logged(
  send: Send,
  now: () => number,
  log: Logged[],
  asks: (exchange: Exchange) => number | undefined,
): Send {
  return async (request) => {
    const key = request.headers.authorization ?? '';
    log.push({ kind: 'send', key, at: now() });
    const ex = await send(request);
    const ms = asks(ex);
    log.push({ kind: 'answer', key, at: now(), status: ex.response.status, ...(ms === undefined ? {} : { asks: ms }) });
    return ex;
  };
}

/** Sends made before an earlier-answered 429 of their key allowed: at its Retry-After, or 1 s when unreadable. */
export function earlySends(log: readonly Logged[]): Logged[] {
  const allowedFrom: Record<string, number> = {};
  const early: Logged[] = [];
  for (const e of log) {
    if (e.kind === 'send' && e.at < (allowedFrom[e.key] ?? -Infinity)) early.push(e);
    if (e.kind === 'answer' && e.status === 429)
      allowedFrom[e.key] = Math.max(allowedFrom[e.key] ?? -Infinity, e.at + (e.asks ?? 1000));
  }
  return early;
}

/**
 * The most 429s in a row on one key, each answered to a request sent after the previous 429 arrived (a
 * wave sent together is one); any other answer ends the run, and the next 429 begins a new one whenever its
 * request was sent. Answers of one key come back in send order.
 */
export function longestRunOf429s(log: readonly Logged[]): number {
  const inFlight: Record<string, number[]> = {};
  const last429: Record<string, number> = {};
  const run: Record<string, number> = {};
  let most = 0;
  let seq = 0;
  for (const e of log) {
    if (e.kind === 'send') (inFlight[e.key] ??= []).push(seq++);
    if (e.kind !== 'answer') continue;
    const sent = inFlight[e.key]!.shift()!;
    if (e.status !== 429) [run[e.key], last429[e.key]] = [0, 0];
    else if (sent >= (last429[e.key] ?? 0)) {
      run[e.key] = (run[e.key] ?? 0) + 1;
      last429[e.key] = seq;
    }
    most = Math.max(most, run[e.key] ?? 0);
  }
  return most;
}

/** The most 429s answered on one key within any span of `windowMs` (by their arrival): how hard a key was pressed. */
export function most429sWithin(log: readonly Logged[], windowMs: number): { key: string; count: number } {
  const byKey = new Map<string, number[]>();
  for (const e of log)
    if (e.kind === 'answer' && e.status === 429) byKey.set(e.key, [...(byKey.get(e.key) ?? []), e.at]);
  let most = { key: '', count: 0 };
  for (const [key, at] of byKey) {
    for (let i = 0, j = 0; j < at.length; j++) {
      while (at[j]! - at[i]! >= windowMs) i++;
      if (j - i + 1 > most.count) most = { key, count: j - i + 1 };
    }
  }
  return most;
}
