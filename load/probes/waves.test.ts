// The one pacing primitive (waveSource): a steady pace keeps its gap per request and waits out a 429's
// Retry-After itself, so the 429 hold (send.ts) never has to hold one of its requests.
import { describe, expect, it } from 'vitest';
import { parsePlansFile, resolvePlan } from '../../spec/plans.ts';
import { contextOn, inProcessTarget } from '../../testkit/load/in-process.ts';
import { seriesName, type ProbeRun } from './context.ts';
import { createFindings } from './findings.ts';
import type { Observation } from './observe.ts';
import { waveSource } from './waves.ts';

const key = 'pc_free_waves_aaaaaaaa';

function runOn(perMinute: number): { run: ProbeRun } {
  const plans = parsePlansFile({
    windows: { minuteSeconds: 2, daySeconds: 60 },
    plans: { free: { perMinute, perDay: 1000 } },
  });
  const t = inProcessTarget({ plans, keys: { [key]: 'free' }, skewMs: 0 });
  const subject = { probe: 'day' as const, plan: 'free', key: 'free' };
  const run: ProbeRun = {
    ctx: contextOn(t, plans.windows),
    k: { key, plan: resolvePlan(plans, 'free') },
    f: createFindings('free', [key]),
    subject,
    seriesName: seriesName(subject),
    answers: [],
  };
  return { run };
}

async function take(next: () => Promise<Observation>, n: number): Promise<Observation[]> {
  const all: Observation[] = [];
  for (let i = 0; i < n; i++) all.push(await next());
  return all;
}

describe('waveSource on a steady pace', () => {
  it('sends one request per gap, never sooner', async () => {
    const { run } = runOn(100);
    const source = waveSource(run, 100, () => Number.POSITIVE_INFINITY, { gapMs: 150 });
    const sent = (await take(source.next, 12)).map((o) => o.sentLocal);
    const gaps = sent.slice(1).map((t, i) => t - sent[i]!);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(150);
    expect(Math.max(...gaps)).toBeLessThan(200);
  });

  it("waits out a 429's Retry-After itself: no request of the pace is held", async () => {
    const { run } = runOn(3);
    const source = waveSource(run, 3, () => Number.POSITIVE_INFINITY, { gapMs: 10 });
    const answers = await take(source.next, 8);
    const refused = answers.filter((o) => o.status === 429);
    expect(refused.length).toBeGreaterThan(0);
    expect(answers.filter((o) => (o.ex.heldMs ?? 0) > 0)).toEqual([]);
    const r = refused[0]!;
    const after = answers.find((o) => o.sentLocal > r.receivedLocal)!;
    expect(after.sentLocal - r.receivedLocal).toBeGreaterThanOrEqual(r.retryAfter!.seconds * 1000);
  });
});
