// The burst probe: far more simultaneous requests than the limit, at the start of a fresh window, must
// admit exactly the limit, and the Remaining values handed out must be distinct and contiguous.
import { labelOf, type ProbeRun } from './context.ts';
import { allowance, isFixed, type ModelVerdict } from './model.ts';
import { retryAfterBeyond, type Observation } from './observe.ts';
import { DATE_SLACK_MS as SLACK_MS } from '../../spec/ratelimit.ts';
import { observe } from './request.ts';
import { dayOwned, waitOutDay429, type DayWait } from './day-out.ts';
import { findFreshWindow } from './window.ts';

/** Requests in one burst: the limit plus as many again (at least 3, at most 100 extra). */
export const burstSize = (perMinute: number): number => perMinute + Math.max(3, Math.min(perMinute, 100));

/** Remaining values per reported window must be distinct and contiguous. */
function judgeRemainingSet(run: ProbeRun, admitted: Observation[]): void {
  const groups = new Map<string, Observation[]>();
  for (const o of admitted) {
    if (!o.rate || o.quota === 'unknown') continue;
    const id = `${o.quota}@${o.rate.reset}`;
    groups.set(id, [...(groups.get(id) ?? []), o]);
  }
  for (const [id, list] of groups) {
    const values = list.map((o) => o.rate!.remaining).sort((a, b) => a - b);
    const distinct = new Set(values).size === values.length;
    const contiguous = values.length === 0 || values[values.length - 1]! - values[0]! === values.length - 1;
    if (!distinct || !contiguous) {
      run.f.fail('burstRemaining', `Remaining values of window ${id} under concurrency: ${values.join(',')} (not distinct and contiguous)`, { exchange: list[0]!.ex, received: values });
      return;
    }
  }
  run.f.pass('burstRemaining');
}

/**
 * The most Remaining among the burst's answers reporting the minute quota: the first one the server counted,
 * whatever order they came back in (issue 15 §3). Below Limit - 1 the allowance was not whole when the
 * burst began; undefined when no answer reports the minute quota.
 */
function firstCounted(admitted: readonly Observation[]): { remaining: number; limit: number } | undefined {
  const minute = admitted.filter((o) => o.quota === 'minute' && o.rate);
  if (minute.length === 0) return undefined;
  return { remaining: Math.max(...minute.map((o) => o.rate!.remaining)), limit: minute[0]!.rate!.limit };
}

/** Models whose Remaining refills continuously: under concurrency two answers may share a value. */
const refills = (model: ModelVerdict | undefined): boolean => model?.model === 'token-bucket' || model?.model === 'sliding-counter';

export async function probeBurst(run: ProbeRun): Promise<void> {
  const { perMinute } = run.k.plan;
  const model = run.ctx.models[labelOf(run)];
  const fixed = model === undefined || isFixed(model) || model.model === 'unknown';
  const n = burstSize(perMinute);
  const day: DayWait = { used: false };
  let idle = false;
  for (let attempt = 0; attempt < 2; attempt++) {
    // A sliding window counter weighs the last window's count at the next one's start: wait one more,
    // also when the model is unknown (the headers report the day quota: fullness cannot be seen).
    const counter = model?.model === 'sliding-counter';
    // After a burst that did not start whole (below), the idle window counts from the later of the named end
    // and a window after our last request, not from the boundary: a bucket's 429 names when one token is back.
    const fresh = await findFreshWindow(run, false, idle || counter || model?.model === 'unknown' ? 1 : 0, !counter && !idle);
    const all = await Promise.all(Array.from({ length: n }, () => observe(run)));
    const resets = new Set(all.filter((o) => o.quota === 'minute' && o.rate).map((o) => o.rate!.reset));
    const crossed = fixed && (resets.size > 1 || all.some((o) => o.serverMs > fresh.endMs + SLACK_MS));
    if (crossed && attempt === 0) {
      // Resets that differ also come from a bucket's Reset creeping per request: with no model shown fixed,
      // the next try starts after an idle window too.
      idle = !(model && isFixed(model));
      continue;
    }
    const admitted = all.filter((o) => o.admitted);
    const dayOut = all.some((o) => (o.status === 429 && o.quota === 'day') || retryAfterBeyond(o, fresh.endMs));
    if (admitted.length < perMinute && dayOut) {
      // The key's day ran out (its minute and day probes spend it too): burst again in the next day window,
      // when the run affords the wait (waits.ts: one day wait), instead of leaving the rule unjudged.
      const refusal = attempt === 0 ? all.find((o) => dayOwned(run, o)) : undefined;
      const unwaited = refusal ? await waitOutDay429(run, refusal, "the burst's 429", day) : undefined;
      if (refusal && !unwaited) continue;
      const fix = unwaited?.fix ?? 'run again in a fresh day window of this key (or with a key whose day quota is unspent)';
      run.f.skip('burstExact', `${admitted.length} of ${perMinute} admitted with a Retry-After beyond the minute window: the day quota ran out${unwaited ? ` (${unwaited.unwaited})` : ''}`, { fix });
      return;
    }
    // Fewer than the plan, and the burst's own answers say it did not start on a whole allowance, while no
    // evidence showed a fixed window (the minute probe could not tell the model): a bucket's 429 names when
    // one token is back, not when the bucket is full, so the "fresh window" it led to was not (the reference
    // token bucket at 1 s windows: 2 of 3 admitted, failed). After an idle window every model is whole again:
    // burst once more; still not whole, unjudged, never failed. A model shown fixed keeps its verdict.
    const start = firstCounted(admitted);
    if (admitted.length < perMinute && !(model && isFixed(model)) && start && start.remaining < start.limit - 1) {
      if (attempt === 0) {
        idle = true;
        continue;
      }
      const why = `${n} simultaneous requests: ${admitted.length} admitted, and the first the server counted reports Remaining ${start.remaining} of ${start.limit}: the allowance was not whole when the burst began, even after an idle window, and the minute probe did not tell the limiter's model`;
      const fix = { fix: 'run the minute probe too (--only minute,burst), which tells the model, or a longer minute window' };
      run.f.skip('burstExact', why, fix);
      // A limiter that was refilling (a bucket) may repeat a Remaining value: not a fixed window's to judge.
      run.f.skip('burstRemaining', why, fix);
      return;
    }
    const spanMs = Math.max(...all.map((o) => o.receivedLocal)) - Math.min(...all.map((o) => o.sentLocal));
    const most = perMinute + (fixed ? 0 : allowance(model!.model, perMinute, run.ctx.windows.minuteSeconds * 1000, spanMs));
    if (admitted.length >= perMinute && admitted.length <= most) run.f.pass('burstExact');
    else {
      run.f.fail('burstExact', `${n} simultaneous requests on a fresh window: ${admitted.length} admitted, the plan allows ${perMinute}${most > perMinute ? ` (a ${model!.model} limiter at most ${most} over ${spanMs} ms)` : ''}`, {
        exchange: (admitted[admitted.length - 1] ?? all[0])!.ex, expected: perMinute, received: admitted.length,
      });
    }
    if (refills(model)) {
      // A rule of fixed windows: a refilling model's simultaneous answers may share a Remaining value.
      run.f.skip('burstRemaining', `a ${model!.model} limiter refills between simultaneous requests, so their Remaining values may repeat`, { kind: 'not-applicable' });
    }
    else judgeRemainingSet(run, admitted);
    return;
  }
}
