// Each Send layer alone, over a scripted base (virtual time where a layer waits).
import { describe, expect, it } from 'vitest';
import { createFakeClock } from '../testkit/load/fake-clock.ts';
import { budget } from './budget.ts';
import { deadline } from './deadline.ts';
import { AbortRunError, TransportError } from './errors.ts';
import type { Exchange, HttpRequest, Send } from './exchange.ts';
import { retryTransport } from './retry.ts';
import { retry429 } from './retry-429.ts';
import { slots } from './slots.ts';
import { tap } from './tap.ts';

const request: HttpRequest = { method: 'GET', url: 'http://127.0.0.1:1/v1/pets', headers: {} };
const answer = (req: HttpRequest, status = 200, headers: Record<string, string> = {}): Exchange => ({
  request: req,
  response: { status, headers, body: '' },
  sentAt: 0,
  durationMs: 1,
});
const ok: Send = async (req) => answer(req);

describe('deadline', () => {
  it('sends until the deadline, then refuses; refuses a wait that would pass it', async () => {
    const clock = createFakeClock(0);
    const d = deadline(clock, 1000, (ms) => new Error(`past (${ms})`));
    const send = d.layer(ok);
    await expect(send(request)).resolves.toBeDefined();
    await expect(d.sleep(1001)).rejects.toThrow('past (1001)');
    await d.sleep(1000);
    expect(clock.now()).toBe(1000);
    await expect(send(request)).resolves.toBeDefined();
    await clock.sleep(1);
    await expect(send(request)).rejects.toThrow('past (0)');
  });

  it('without one, never refuses', async () => {
    const d = deadline(createFakeClock(0), undefined, () => new Error('never'));
    await d.sleep(1e12);
    await expect(d.layer(ok)(request)).resolves.toBeDefined();
  });
});

describe('budget', () => {
  it('refuses once the spent requests reach the limit less the reserve, read at every request', async () => {
    let spent = 0;
    let reserved = 2;
    const send = budget({
      limit: 5,
      spent: () => spent,
      reserved: () => reserved,
      refuse: (r) => new Error(`spent (kept ${r})`),
    })(async (req) => (spent++, answer(req)));
    for (let i = 0; i < 3; i++) await send(request);
    await expect(send(request)).rejects.toThrow('spent (kept 2)');
    reserved = 0;
    await send(request);
    await send(request);
    await expect(send(request)).rejects.toThrow('spent (kept 0)');
    expect(spent).toBe(5);
  });
});

describe('slots', () => {
  it('keeps at most n requests in flight, the others in order, and frees a slot on failure too', async () => {
    let inFlight = 0;
    let most = 0;
    const order: number[] = [];
    const base: Send = async (req) => {
      inFlight++;
      most = Math.max(most, inFlight);
      await new Promise((r) => setTimeout(r, 5));
      inFlight--;
      order.push(Number(req.body));
      if (req.body === '1') throw new TransportError('TIMEOUT', 'slow');
      return answer(req);
    };
    const send = slots(2)(base);
    const all = [0, 1, 2, 3, 4].map((i) => send({ ...request, body: String(i) }).catch(() => undefined));
    await Promise.all(all);
    expect(most).toBe(2);
    expect(order.slice(2)).toEqual([2, 3, 4]);
  });
});

describe('tap', () => {
  it('sees every exchange that comes back, and nothing that failed', async () => {
    const seen: number[] = [];
    let n = 0;
    const base: Send = async (req) => {
      if (n++ === 1) throw new TransportError('TIMEOUT', 'slow');
      return answer(req, n === 1 ? 429 : 200);
    };
    const send = tap((ex) => seen.push(ex.response.status))(base);
    await send(request);
    await send(request).catch(() => undefined);
    await send(request);
    expect(seen).toEqual([429, 200]);
  });
});

describe('retryTransport', () => {
  it('sends again after a transport failure, `tries` in all, then throws the last failure', async () => {
    let n = 0;
    const send = retryTransport(3)(async () => {
      n++;
      throw new TransportError('TIMEOUT', `try ${n}`);
    });
    await expect(send(request)).rejects.toThrow('try 3');
    expect(n).toBe(3);
  });

  it('returns the first answer, and never retries what is not a transport failure', async () => {
    let n = 0;
    const flaky = retryTransport(3)(async (req) =>
      n++ === 0 ? Promise.reject(new TransportError('CONNECTION_RESET', 'reset')) : answer(req),
    );
    const answered = await flaky(request);
    // The answer says it took two sends: the first, unanswered, may still have reached the server.
    expect([answered.response.status, answered.tries]).toEqual([200, 2]);
    expect(n).toBe(2);
    let m = 0;
    const bug = retryTransport(3)(async () => {
      m++;
      throw new Error('a bug');
    });
    await expect(bug(request)).rejects.toThrow('a bug');
    expect(m).toBe(1);
  });
});

describe('retry429', () => {
  const options = (clock: ReturnType<typeof createFakeClock>, over: Partial<Parameters<typeof retry429>[0]> = {}) => ({
    max429: 3,
    maxWaitMs: 60_000,
    backoff: { baseMs: 1000, capMs: 8000 },
    retryAfter: (ex: Exchange) => ({
      seconds: ex.response.headers['retry-after'] ? Number(ex.response.headers['retry-after']) : undefined,
      text: ex.response.headers['retry-after'],
    }),
    steers: () => true,
    sleep: (ms: number) => clock.sleep(ms),
    ...over,
  });
  const scripted = (statuses: Array<[number, string?]>): Send => {
    let i = 0;
    return async (req) => {
      const [status, ra] = statuses[i++] ?? [200];
      return answer(req, status, ra === undefined ? {} : { 'retry-after': ra });
    };
  };

  it('waits out each 429 (never less than Retry-After, backing off) and returns the answer after it', async () => {
    const clock = createFakeClock(0);
    const send = retry429(options(clock))(scripted([[429], [429, '5'], [429], [200]]));
    expect((await send(request)).response.status).toBe(200);
    // 1 s, then max(2 s, Retry-After 5 s), then 4 s.
    expect(clock.now()).toBe(10_000);
  });

  it('stops the run after max429 in a row, and a non-429 to the key resets the row', async () => {
    const clock = createFakeClock(0);
    const reset = retry429(options(clock))(scripted([[429], [429], [200], [429], [429], [429], [200]]));
    await reset(request);
    expect((await reset(request)).response.status).toBe(200);
    const stuck = retry429(options(clock))(scripted([[429], [429], [429], [429], [429]]));
    await expect(stuck(request)).rejects.toThrow(/stopped after 3 responses 429/);
    await expect(stuck(request)).rejects.toBeInstanceOf(AbortRunError);
  });

  it('refuses a wait longer than maxWaitMs, naming the Retry-After, without waiting', async () => {
    const clock = createFakeClock(0);
    const send = retry429(options(clock))(scripted([[429, '3600']]));
    await expect(send(request)).rejects.toThrow(
      'the target asks to wait 3600 s (Retry-After 3600), longer than the 60 s petcert waits',
    );
    expect(clock.now()).toBe(0);
  });

  it('waits through `sleep`, so a deadline can refuse the wait', async () => {
    const clock = createFakeClock(0);
    const send = retry429(options(clock, { sleep: () => Promise.reject(new Error('past the deadline')) }))(
      scripted([[429]]),
    );
    await expect(send(request)).rejects.toThrow('past the deadline');
  });
});
