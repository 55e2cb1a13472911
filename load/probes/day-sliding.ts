// The day probe for a limiter that is not a fixed window (model.ts: sliding log, sliding window counter,
// token bucket): there is no day boundary to wait for. Paced steadily just under the minute rate until
// the day quota refuses, it judges what §8 states of any model: the refusal came only once this key had
// spent the plan's perDay (all its requests in every probe), no more than perDay (plus what a refilling
// model gives back) were admitted within one day of this probe's own requests, and the 429 carries a
// consistent Retry-After.
import { keySamples, spentBefore, waitFor, serverNow, type ProbeRun } from './context.ts';
import { dayGiveUpMs } from './waits.ts';
import { dayEndOf, isDay429 } from './day-refusal.ts';
import { DAY_RETRY_AFTER, judgeRetryAfterConsistent } from './judge.ts';
import { allowance, notFixedHow, notFixedReason, type ModelVerdict } from './model.ts';
import type { Observation } from './observe.ts';
import { observe } from './request.ts';
import { serverOrder, widthFor } from './waves.ts';

/** Paced this much slower than the minute figure: a sliding minute quota never refuses the pacing. */
const PACE_MARGIN = 1.05;

/** Most admitted within less than a day of each other (our clock, so only differences matter), beyond what the model refills. */
function overDay(run: ProbeRun, own: Observation[], model: ModelVerdict): { count: number; most: number; at: Observation } | undefined {
  const { perDay } = run.k.plan;
  const dayMs = run.ctx.windows.daySeconds * 1000;
  let i = 0;
  for (let j = 0; j < own.length; j++) {
    while (own[j]!.receivedLocal - own[i]!.sentLocal >= dayMs) i++;
    const count = j - i + 1;
    const most = perDay + allowance(model.model, perDay, dayMs, own[j]!.receivedLocal - own[i]!.sentLocal);
    if (count > most) return { count, most, at: own[j]! };
  }
  return undefined;
}

/**
 * This key's requests the server answered, in every probe: admitted, and refused (some servers count
 * those), and those sent before the probes (identifying the target: `before`, answers unseen).
 */
function spentByKey(run: ProbeRun): { admitted: number; refused: number; before: number } {
  const samples = keySamples(run);
  return {
    admitted: samples.filter((s) => s.status >= 200 && s.status < 300).length,
    refused: samples.filter((s) => s.status === 429).length,
    before: spentBefore(run),
  };
}

/** Judges the day of a limiter that is not a fixed window by its refusal `final` and this probe's admitted requests `own`. */
export function judgeNotFixedDay(run: ProbeRun, own: Observation[], final: Observation, model: ModelVerdict): void {
  const { f, k } = run;
  const { perDay } = k.plan;
  const over = overDay(run, own, model);
  const spent = spentByKey(run);
  if (over) {
    f.fail('dayExact', `${over.count} requests admitted within one day window (${run.ctx.windows.daySeconds} s); the plan allows ${perDay}${over.most > perDay ? `, a ${model.model} limiter at most ${over.most}` : ''}`, { exchange: over.at.ex, expected: perDay, received: over.count });
  } else if (spent.admitted + spent.refused - 1 + spent.before < perDay) {
    const before = spent.before ? `, ${spent.before} before the probes` : '';
    f.fail('dayExact', `the day quota refused after this key had ${spent.admitted} requests admitted (and ${spent.refused - 1} refused${before}) in all; the plan allows ${perDay} per day`, { exchange: final.ex, expected: perDay, received: spent.admitted });
  } else f.pass('dayExact');
  judgeRetryAfterConsistent(run, final, run.ctx.windows.daySeconds, DAY_RETRY_AFTER);
  f.observe('dayHeaders', { on429: final.quota });
  f.skip('rejectedConsume', notFixedReason(model), notFixedHow(model));
}

/**
 * No day 429 within two days at our pace. A token bucket's day (perDay, refilled perDay per day) gives
 * back nearly what a pace just above its refill spends: within what it refills over the span it is not
 * shown to be unenforced (unjudged); past it, it is. A log or counter never refills beyond perDay a day:
 * two days without a refusal at the minute pace is a fault.
 */
function giveUp(run: ProbeRun, own: Observation[], o: Observation, spanMs: number, model: ModelVerdict): void {
  const { perMinute, perDay } = run.k.plan;
  const dayMs = run.ctx.windows.daySeconds * 1000;
  const most = perDay + allowance(model.model, perDay, dayMs, spanMs);
  const over = `paced under ${perMinute} per minute window, ${own.length} requests were admitted over ${Math.round(spanMs / 1000)} s without a day-quota 429 (plan: ${perDay} per day)`;
  if (model.model !== 'token-bucket' || own.length > most) {
    const bucket = model.model === 'token-bucket' ? `; a token-bucket limiter at most ${most}` : '';
    run.f.fail('dayExact', `${over}${bucket}`, { exchange: o.ex, expected: perDay, received: own.length });
  } else {
    run.f.skip('dayExact', `${over}: within what a token-bucket day quota refills over that time (${most}), so the pace cannot show whether it is enforced`);
  }
}

export async function probeDaySliding(run: ProbeRun, model: ModelVerdict): Promise<void> {
  const { ctx, k, f } = run;
  const { perMinute, perDay } = k.plan;
  const minuteMs = ctx.windows.minuteSeconds * 1000;
  const gapMs = (minuteMs / perMinute) * PACE_MARGIN;
  const own: Observation[] = [];
  const started = serverNow(ctx);
  // Bounded by time below (two days and two minutes at this pace), and by count here as a backstop.
  const most = Math.ceil(dayGiveUpMs(ctx.windows, 'find') / gapMs) + 3 * perDay + 10;
  let rttMs: number | undefined;
  for (let i = 0; i < most;) {
    // In waves when the round trip needs it (waves.ts), at the same average pace; read in the server's order.
    const width = rttMs === undefined ? 1 : widthFor(perMinute, rttMs, minuteMs);
    const waveAt = ctx.clock.now();
    const wave = serverOrder(await Promise.all(Array.from({ length: width }, () => observe(run))));
    rttMs = Math.max(...wave.map((o) => o.receivedLocal - o.sentLocal));
    i += width;
    let retry = 0;
    for (const o of wave) {
      if (o.status === 429 && isDay429(run, o, o.serverMs + minuteMs)) {
        if (dayEndOf(run, o) === undefined) f.skip('dayExact', "the day quota's 429 does not say when one more request fits within one day window");
        else judgeNotFixedDay(run, own, o, model);
        return;
      }
      if (o.admitted) own.push(o);
      if (o.serverMs - started > dayGiveUpMs(ctx.windows, 'find')) return giveUp(run, own, o, o.serverMs - started, model);
      if (o.status === 429 && o.retryAfter) retry = Math.max(retry, o.retryAfter.seconds * 1000);
    }
    ctx.progress({ phase: `quota ${k.plan.name}: day`, done: Math.min(own.length, perDay - 1), total: perDay, etaMs: Math.max(0, perDay - own.length) * gapMs });
    await waitFor(ctx, Math.max(retry, width * gapMs - (ctx.clock.now() - waveAt)), 'pacing at the minute rate');
  }
}
