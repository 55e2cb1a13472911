// The hold alone, in virtual time: scripted answers, then fast-check's hostile limiters.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { retryAfterMs } from '../spec/ratelimit.ts';
import { createFakeClock, type FakeClock } from '../testkit/load/fake-clock.ts';
import type { Exchange, HttpRequest, Send } from './exchange.ts';
import { hold429, holdMs, type Hold429Options } from './hold-429.ts';
import { earlySends, longestRunOf429s, type Logged } from '../testkit/load/send-log.ts';

const LATENCY_MS = 5;
const requestOn = (key: string): HttpRequest => ({
  method: 'GET',
  url: 'http://127.0.0.1:1/v1/pets',
  headers: { authorization: `Bearer ${key}` },
});

/** A transport answering each key from its own script (the last answer repeats), logging sends and answers in order. */
function scripted(
  clock: FakeClock,
  answers: Record<string, Array<{ status: number; headers?: Record<string, string>; asksMs?: number }>>,
  log: Logged[],
): Send {
  const used: Record<string, number> = {};
  return async (request) => {
    const key = request.headers.authorization!;
    log.push({ kind: 'send', key, at: clock.now() });
    await clock.sleep(LATENCY_MS);
    const script = answers[key] ?? [{ status: 200 }];
    const i = (used[key] = (used[key] ?? -1) + 1);
    const a = script[Math.min(i, script.length - 1)]!;
    const headers = { date: new Date(clock.now()).toUTCString(), ...a.headers };
    const exchange: Exchange = {
      request,
      response: { status: a.status, headers, body: '' },
      sentAt: clock.now(),
      durationMs: LATENCY_MS,
    };
    // What the answer asks, as its script states it when it does: never read back by the parser under test.
    const asks = 'asksMs' in a ? a.asksMs : retryAfterMs(exchange.response.headers);
    log.push({ kind: 'answer', key, at: clock.now(), status: a.status, ...(asks === undefined ? {} : { asks }) });
    return exchange;
  };
}

const options = (clock: FakeClock, over: Partial<Hold429Options> = {}): Hold429Options => ({
  clock,
  keyOf: (r) => r.headers.authorization ?? '',
  retryAfterMs: (exchange) => retryAfterMs(exchange.response.headers),
  backoffBaseMs: 1000,
  backoffCapMs: 30_000,
  maxWaitMs: 60_000,
  maxInRow: 6,
  maxHeldPerRun: 20,
  sleep: (ms) => clock.sleep(ms),
  refuse: (why) => new Error(why),
  ...over,
});

describe('holdMs', () => {
  it('waits what Retry-After asks on the first 429, then at least the backoff; without one, the backoff from 1 s', () => {
    expect([1, 2, 3, 4].map((n) => holdMs(n, 0, 1000))).toEqual([0, 1000, 2000, 4000]);
    expect([1, 2, 3].map((n) => holdMs(n, 3000, 1000))).toEqual([3000, 3000, 3000]);
    expect([1, 2, 3].map((n) => holdMs(n, undefined, 1000))).toEqual([1000, 2000, 4000]);
    expect([5, 6, 7].map((n) => holdMs(n, undefined, 1000, 20_000))).toEqual([16_000, 20_000, 20_000]);
  });
});

describe('hold429', () => {
  it('sends nothing on a key before its 429 Retry-After has elapsed from the 429, whatever the caller does', async () => {
    const clock = createFakeClock(0);
    const log: Logged[] = [];
    const send = hold429(options(clock))(
      scripted(clock, { 'Bearer a': [{ status: 429, headers: { 'retry-after': '3' } }, { status: 200 }] }, log),
    );
    await send(requestOn('a'));
    await send(requestOn('a'));
    expect(log.filter((e) => e.kind === 'send').map((e) => e.at)).toEqual([0, LATENCY_MS + 3000]);
  });

  it('tells the caller how long its request waited: a round trip read around the hold is not the server’s', async () => {
    const clock = createFakeClock(0);
    const send = hold429(options(clock))(
      scripted(clock, { 'Bearer a': [{ status: 429, headers: { 'retry-after': '2' } }, { status: 200 }] }, []),
    );
    const first = await send(requestOn('a'));
    const held = await send(requestOn('a'));
    expect([first.heldMs, held.heldMs]).toEqual([undefined, 2000]);
  });

  it('holds only the key that was refused', async () => {
    const clock = createFakeClock(0);
    const log: Logged[] = [];
    const send = hold429(options(clock))(
      scripted(clock, { 'Bearer a': [{ status: 429, headers: { 'retry-after': '30' } }] }, log),
    );
    await send(requestOn('a'));
    await send(requestOn('b'));
    expect(log.filter((e) => e.kind === 'send').map((e) => [e.key, e.at])).toEqual([
      ['Bearer a', 0],
      ['Bearer b', LATENCY_MS],
    ]);
  });

  it('a 429 without a readable Retry-After holds for the backoff, doubling while 429s continue', async () => {
    const clock = createFakeClock(0);
    const log: Logged[] = [];
    const send = hold429(options(clock))(
      scripted(clock, { 'Bearer a': [{ status: 429, headers: { 'retry-after': 'soon' } }] }, log),
    );
    for (let i = 0; i < 4; i++) await send(requestOn('a'));
    const sends = log.filter((e) => e.kind === 'send').map((e) => e.at);
    expect(sends.slice(1).map((t, i) => t - sends[i]! - LATENCY_MS)).toEqual([1000, 2000, 4000]);
  });

  it('a wave sent together counts as one 429 in a row, and its answers do not lengthen the backoff', async () => {
    const clock = createFakeClock(0);
    const log: Logged[] = [];
    const send = hold429(options(clock))(
      scripted(clock, { 'Bearer a': [{ status: 429, headers: { 'retry-after': '0' } }] }, log),
    );
    await Promise.all(Array.from({ length: 10 }, () => send(requestOn('a'))));
    await send(requestOn('a'));
    await send(requestOn('a'));
    const sends = log.filter((e) => e.kind === 'send').map((e) => e.at);
    // First 429 in a row: Retry-After 0; the second: at least the 1 s backoff.
    expect(sends.slice(10)).toEqual([LATENCY_MS, 2 * LATENCY_MS + 1000]);
  });

  it('an answer that is not 429 ends the run of 429s', async () => {
    const clock = createFakeClock(0);
    const log: Logged[] = [];
    const ra0 = { status: 429, headers: { 'retry-after': '0' } };
    const send = hold429(options(clock))(scripted(clock, { 'Bearer a': [ra0, ra0, { status: 200 }, ra0, ra0] }, log));
    for (let i = 0; i < 5; i++) await send(requestOn('a'));
    const sends = log.filter((e) => e.kind === 'send').map((e) => e.at);
    expect(sends.slice(1).map((t, i) => t - sends[i]! - LATENCY_MS)).toEqual([0, 1000, 0, 0]);
  });

  it('refuses, without waiting, a hold longer than the longest wait; the 429 itself reaches the caller', async () => {
    const clock = createFakeClock(0);
    const log: Logged[] = [];
    const send = hold429(options(clock, { maxWaitMs: 10_000 }))(
      scripted(clock, { 'Bearer a': [{ status: 429, headers: { 'retry-after': '3600' } }] }, log),
    );
    await expect(send(requestOn('a'))).resolves.toMatchObject({ response: { status: 429 } });
    await expect(send(requestOn('a'))).rejects.toThrow('asks to wait 3600 s more, beyond the 10 s');
    expect(clock.now()).toBe(LATENCY_MS);
  });

  it('stops a key after maxInRow 429s in a row, and the run after maxHeldPerRun 429s that came after a hold', async () => {
    const clock = createFakeClock(0);
    const log: Logged[] = [];
    const ra = { status: 429, headers: { 'retry-after': '1' } };
    const send = hold429(options(clock, { maxInRow: 3, maxHeldPerRun: 3 }))(
      scripted(clock, { 'Bearer a': [ra], 'Bearer b': [ra] }, log),
    );
    for (let i = 0; i < 3; i++) await send(requestOn('a'));
    await expect(send(requestOn('a'))).rejects.toThrow('answered 429 3 times in a row');
    await send(requestOn('b'));
    await send(requestOn('b'));
    await expect(send(requestOn('b'))).rejects.toThrow('3 responses 429 came after waiting');
  });
});

// Hostile limiters: each key answers from a drawn script of statuses and Retry-After forms; a drawn
// caller sends single requests and bursts after drawn gaps. Whatever it draws, no send on a key comes
// before a 429 of that key that was answered earlier has had its Retry-After (or 1 s when unreadable): the
// wait each answer asks is stated by the draw, not read back by the parser under test.
const ZONES = { GMT: 0, UTC: 0, '+0000': 0, '+0100': 60, '-0530': -330 } as const;
const retryAfterForm = fc.oneof(
  fc.constant(undefined),
  fc.constant('0'),
  fc.integer({ min: 1, max: 5 }).map(String),
  fc.constant('99999'),
  fc.constant('soon'),
  fc.record({ date: fc.integer({ min: 0, max: 4 }), zone: fc.constantFrom(...(Object.keys(ZONES) as Zone[])) }),
);
const answer = fc.record({ status: fc.constantFrom(200, 429, 429, 503), retryAfter: retryAfterForm });
const step = fc.record({
  key: fc.constantFrom('a', 'b'),
  gapMs: fc.integer({ min: 0, max: 3000 }),
  burst: fc.integer({ min: 1, max: 4 }),
});

type Drawn = Partial<Record<'Bearer a' | 'Bearer b', Array<{ status: number; retryAfter: RetryAfterForm }>>>;
type Step = { key: string; gapMs: number; burst: number };
type Zone = keyof typeof ZONES;
type RetryAfterForm = string | { date: number; zone?: Zone } | undefined;

/** The wait a form names, in ms (undefined: none readable), from the draw itself. */
function asksOf(form: RetryAfterForm): number | undefined {
  if (form === undefined) return undefined;
  if (typeof form !== 'string') return form.date * 1000;
  return /^\d+$/.test(form) ? Number(form) * 1000 : undefined;
}

/** One hostile run: the caller's steps against the drawn scripts; no early send, and never past the caps. */
async function hostileRun(drawn: Drawn, steps: readonly Step[]): Promise<void> {
  const clock = createFakeClock(1_000_000);
  const log: Logged[] = [];
  const answers = Object.fromEntries(
    Object.entries(drawn).map(([k, list]) => [
      k,
      list.map((a) => ({
        status: a.status,
        headers: headersOf(a.retryAfter, clock),
        asksMs: a.status === 429 ? asksOf(a.retryAfter) : undefined,
      })),
    ]),
  );
  const o = options(clock, { maxInRow: 4, maxHeldPerRun: 6 });
  const send = hold429(o)(scripted(clock, answers, log));
  for (const s of steps) {
    await clock.sleep(s.gapMs);
    await Promise.allSettled(Array.from({ length: s.burst }, () => send(requestOn(s.key))));
  }
  expect(earlySends(log)).toEqual([]);
  expect(longestRunOf429s(log)).toBeLessThanOrEqual(o.maxInRow);
}

describe('hold429 against hostile limiters (fast-check)', () => {
  it('never sends on a key before its last 429 allows, and never past the caps', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(fc.constantFrom('Bearer a', 'Bearer b'), fc.array(answer, { minLength: 1, maxLength: 12 })),
        fc.array(step, { maxLength: 30 }),
        hostileRun,
      ),
      { numRuns: 300 },
    );
  });

  // Seed -1556117704: a wave answered 429, 200, 429 left its last 429 uncounted (the 200 had ended the run),
  // and the waves of 429s after it made five in a row where the cap is four.
  it('a 429 answered after an admission in the same wave begins a new run of 429s', async () => {
    const ra = (retryAfter: RetryAfterForm) => ({ status: 429, retryAfter });
    const ok = { status: 200, retryAfter: undefined };
    const a = (burst: number) => ({ key: 'a', gapMs: 0, burst });
    await hostileRun({ 'Bearer a': [ok, ok, ra({ date: 0 }), ra('soon'), ok, ra(undefined)] }, [
      a(3),
      a(3),
      { key: 'b', gapMs: 0, burst: 1 },
      a(1),
      a(2),
      a(2),
      a(2),
    ]);
  });
});

function headersOf(form: RetryAfterForm, clock: FakeClock): Record<string, string> | undefined {
  if (form === undefined) return undefined;
  if (typeof form === 'string') return { 'retry-after': form };
  // A date is read against the answer's Date: a getter, so both come from the clock at answer time.
  const zone = form.zone ?? 'GMT';
  return {
    get 'retry-after'() {
      const at = Math.floor(clock.now() / 1000) * 1000 + form.date * 1000 + ZONES[zone] * 60_000;
      return new Date(at).toUTCString().replace('GMT', zone);
    },
  } as Record<string, string>;
}
