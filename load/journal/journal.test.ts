// The journal in virtual time: a quota run over the in-process reference server (and a faulty one)
// recorded, then re-judged from its journal alone: the same checks; the key never in it, even echoed;
// an UNREACHABLE run re-judged UNREACHABLE; a malformed journal refused naming its line.
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { TransportError } from '../../core/errors.ts';
import { createVirtualClock } from '../../core/virtual-clock.ts';
import type { Report } from '../../report/model.ts';
import { parsePlansFile } from '../../spec/plans.ts';
import { deadTarget } from '../../testkit/load/dead-target.ts';
import { FAKE_START_MS, inProcessTarget } from '../../testkit/load/in-process.ts';
import { runQuota } from '../quota.ts';
import { journalBytes } from './file.ts';
import { journalText, parseJournal, type Journal } from './format.ts';
import { createRecorder, eventCounter } from './record.ts';
import { rejudgeJournal } from './rejudge.ts';
import { replayTransport } from './replay.ts';

const plans = parsePlansFile({
  windows: { minuteSeconds: 2, daySeconds: 20 },
  plans: { free: { perMinute: 20, perDay: 100 }, pro: { perMinute: 40, perDay: 160 } },
});
const keyPlans = { pc_free_journal_aaaaaaaa: 'free', pc_pro_journal_bbbbbbbbbb: 'pro' };

const verdicts = (r: Report) =>
  r.checks.map((c) => [c.id, c.outcome, c.failures.map((f) => f.message), c.skipReason ?? '']);

async function recorded(faults = {}): Promise<{ report: Report; journal: Journal }> {
  const target = inProcessTarget({ plans, keys: keyPlans, faults });
  let journal: Journal | undefined;
  const report = await runQuota({
    baseUrl: target.baseUrl,
    keys: Object.entries(keyPlans).map(([key, plan]) => ({ key, plan })),
    plans,
    send: target.send,
    clock: target.clock,
    journal: (j) => (journal = j),
  });
  return { report, journal: journal! };
}

describe('a recorded quota run re-judged from its journal', () => {
  it.for([
    ['the reference server', {}],
    ['an over-admitting one', { overAdmit: 1 }],
  ] as const)('%s: the same checks, every exchange used', async ([, faults]) => {
    const live = await recorded(faults);
    const again = await rejudgeJournal(parseJournal(journalText(live.journal), 'test'));
    expect(again.missing).toEqual([]);
    expect(again.unused).toBe(0);
    expect(verdicts(again.report)).toEqual(verdicts(live.report));
    expect(again.report.requests).toBe(live.report.requests);
    expect(again.readings).toMatchObject({ shown: again.readings.recorded, followed: true });
  });

  it('an UNREACHABLE run is re-judged UNREACHABLE', async () => {
    const clock = createVirtualClock(FAKE_START_MS);
    let journal: Journal | undefined;
    const live = await runQuota({
      baseUrl: 'http://127.0.0.1:1/v1',
      keys: [{ plan: 'free', key: 'pc_free_dead_aaaaaaaaaa' }],
      plans,
      only: ['minute'],
      ...deadTarget(clock, 1000),
      clock,
      journal: (j) => (journal = j),
    });
    expect(live.aborted?.code).toBe('UNREACHABLE');
    expect(journal!.entries.every((e) => e.error?.code === 'TIMEOUT')).toBe(true);
    const again = await rejudgeJournal(journal!);
    expect(again.report.aborted).toEqual(live.aborted);
  });
});

describe('the replay transport', () => {
  it('counts the requests of a kind the journal never recorded, and stops each with the fix', async () => {
    const journal = { header: { baseUrl: 'http://h/v1' } as Journal['header'], entries: [] };
    const replay = replayTransport(journal, createVirtualClock(0), new Map([['k', 'free']]));
    const request = { method: 'GET', url: 'http://h/v1/pets?limit=1', headers: { authorization: 'Bearer k' } };
    await expect(replay.send(request)).rejects.toThrow(/request 1 of key free GET \/pets\?limit=1 \(it recorded 0\)/);
    await expect(replay.send(request)).rejects.toMatchObject({ fix: expect.stringMatching(/re-record the journal/) });
    expect(replay.missing().map((m) => m.nth)).toEqual([1, 2]);
  });

  it('answers no request asked more than a second away from when the live run sent it: the answer is of another moment', async () => {
    const entry = {
      seq: 1,
      key: 'free',
      method: 'GET',
      path: '/pets?limit=1',
      sentAt: 1000,
      answeredAt: 1010,
      arrived: 1,
    };
    const response = { status: 200, headers: {}, body: '[]' };
    const journal = {
      header: { baseUrl: 'http://h/v1' } as Journal['header'],
      entries: [{ ...entry, ...response }],
    } as Journal;
    const request = { method: 'GET', url: 'http://h/v1/pets?limit=1', headers: { authorization: 'Bearer k' } };
    const late = replayTransport(journal, createVirtualClock(2500), new Map([['k', 'free']]));
    await expect(late.send(request)).rejects.toThrow(/request 1 of key free GET \/pets\?limit=1 is sent 1\.5 s later/);
    expect(late.missing()).toMatchObject([{ nth: 1, offMs: 1500 }]);
    const onTime = replayTransport(journal, createVirtualClock(1900), new Map([['k', 'free']]));
    await expect(onTime.send(request)).resolves.toMatchObject({ response: { status: 200 } });
  });
});

describe('the recorder', () => {
  it('names the key by its label, scrubs it from headers, bodies and errors, and keeps the transport error', async () => {
    const key = 'pc_free_echoed_secret_zz';
    const clock = createVirtualClock(FAKE_START_MS);
    const recorder = createRecorder({
      clock,
      events: eventCounter(),
      baseUrl: 'http://h/v1',
      labels: new Map([[key, 'free']]),
    });
    let n = 0;
    const send = recorder.layer(async (request) => {
      if (++n === 2) throw new TransportError('CONNECTION_RESET', `reset while sending ${key}`);
      return {
        request,
        response: { status: 200, headers: { 'x-echo': `Bearer ${key}` }, body: `{"key":"${key}"}` },
        sentAt: clock.now(),
        durationMs: 0,
      };
    });
    const request = { method: 'GET', url: 'http://h/v1/pets?limit=1', headers: { authorization: `Bearer ${key}` } };
    await send(request);
    await expect(send(request)).rejects.toThrow(TransportError);
    await send({ ...request, headers: {} });
    const [a, b, c] = recorder.entries();
    expect(a).toMatchObject({ seq: 1, key: 'free', path: '/pets?limit=1', status: 200 });
    expect(b).toMatchObject({ seq: 2, key: 'free', error: { code: 'CONNECTION_RESET' } });
    expect(c).toMatchObject({ seq: 3, key: null });
    const journal = { header: { startMs: 0 } as Journal['header'], entries: recorder.entries() };
    const text = gunzipSync(journalBytes(journal, [key])).toString('utf8');
    expect(text).not.toContain(key);
    expect(text).toContain('Bearer ***');
  });
});

describe('a malformed journal', () => {
  const header = {
    format: 'petcert-quota-journal',
    version: 1,
    petcert: '0.1.0',
    baseUrl: 'http://127.0.0.1:1/v1',
    plans,
    keys: [{ label: 'free', plan: 'free' }],
    only: ['minute'],
    startMs: 0,
    before: {},
    requestsBefore: 0,
  };
  const entry = { seq: 1, key: 'free', method: 'GET', path: '/pets', sentAt: 0, answeredAt: 1, arrived: 1 };
  const ok = { ...entry, status: 200, headers: {}, body: '' };
  it.for([
    ['empty', '', /line 1: no header/],
    ['not JSON', '{"format":', /line 1: not JSON/],
    ['no header', JSON.stringify(ok), /line 1: its first line is not a petcert-quota-journal header/],
    ['another version', JSON.stringify({ ...header, version: 2 }), /version 2 of the journal format/],
    ['no keys', JSON.stringify({ ...header, keys: [] }), /lists no keys/],
    ['a gap in seq', [header, { ...ok, seq: 2 }].map((l) => JSON.stringify(l)).join('\n'), /line 2: seq 2/],
    ['an entry without answer', [header, entry].map((l) => JSON.stringify(l)).join('\n'), /line 2: no status/],
  ] as const)('%s: refused, naming the line', ([, text, why]) => {
    expect(() => parseJournal(text, '--rejudge j')).toThrow(why);
  });
});
