// Runs the selected probes for every key and gathers checks and series. Minute probes go one key at a
// time, the spender first (the isolation probe spends a request of every other key in its spent window);
// each key's burst and day probes, on its own buckets, follow its minute probe beside the others'.
import { AbortRunError } from '../../core/errors.ts';
import type { Unjudged } from '../../report/check.ts';
import type { CheckResult } from '../../report/model.ts';
import { PROBE_CHECKS, type ProbeName } from './checks.ts';
import { seriesName, type KeyUnderTest, type ProbeContext, type ProbeRun } from './context.ts';
import { BURST_RULES, burstOf, probeBurst } from './burst/burst.ts';
import { dayOf, probeDay } from './day/day.ts';
import { DAY_RULES } from './day/day-rules.ts';
import { createFindings, type Findings, type Observed, type ProbeRule } from './findings.ts';
import { ISOLATION_RULES, isolationOf, probeIsolation } from './isolation/isolation.ts';
import { minuteOf, probeMinute } from './minute/minute.ts';
import { MINUTE_RULES, minuteEnded } from './minute/minute-rules.ts';
import { ProbeStop } from './observe.ts';
import { judgeHeld, judgeResponses, keyResponses, type KeyResponses } from './response-judge.ts';
import { HeldBack, WaitCapped } from './bounds.ts';
import type { WindowCount } from './window.ts';
import type { ModelVerdict } from './models/minute-count.ts';

export interface ProbeResults {
  checks: CheckResult[];
  series: ProbeContext['series'];
  subjects: ProbeContext['subjects'];
}

/** Distinct labels for keys: two keys on one plan become "free" and "free#2". */
export function labels(keys: ReadonlyArray<Pick<KeyUnderTest, 'plan'>>): string[] {
  const seen = new Map<string, number>();
  return keys.map((k) => {
    const n = (seen.get(k.plan.name) ?? 0) + 1;
    seen.set(k.plan.name, n);
    return n === 1 ? k.plan.name : `${k.plan.name}#${n}`;
  });
}

/** Why a probe ended early: stopped by an uninterpretable answer, or cut short by a wait or the run's bound. */
const CUT_FIX =
  'raise --max-wait if you lowered it (default: the longest window the plans allow), or give the run more time';

const HELD_FIX =
  'the service answered 429 again after petcert waited what its Retry-After asked: check that Retry-After covers the time until the key is admitted, and ' +
  'that no other client spends this key';

function cutOf(error: unknown): Unjudged | undefined {
  if (error instanceof HeldBack) return { reason: `probe cut short: ${error.message}`, fix: HELD_FIX };
  if (error instanceof WaitCapped) return { reason: `probe cut short: ${error.message}`, fix: CUT_FIX };
  return error instanceof ProbeStop ? { reason: `probe stopped: ${error.message}`, fix: error.fix } : undefined;
}

/**
 * Runs a probe that fills its observation, then judges its answers by the response rules and its
 * observation by the probe's rules. A probe stopped by an uninterpretable answer or cut short by a wait ends
 * (the run goes on with the next probe) and leaves its observation with the cut: the rules that needed the
 * rest say why (findings.ts).
 */
async function judged<O extends Observed>(
  run: ProbeRun,
  responses: KeyResponses,
  probe: ProbeName,
  rules: readonly ProbeRule<O>[],
  seen: O,
  body: (seen: O) => Promise<void>,
): Promise<void> {
  try {
    await body(seen);
  } catch (error) {
    const cut = cutOf(error);
    if (!cut) throw error;
    seen.cut = cut;
  }
  judgeResponses(run, responses);
  run.f.judge(rules, seen, PROBE_CHECKS[probe]);
}

/**
 * `told`: a model per key label known before the run (a test standing in for an earlier minute probe); each
 * key's minute probe tells its own, which its burst, day and the isolation requests it receives are judged by.
 */
export async function runProbes(
  ctx: ProbeContext,
  keys: KeyUnderTest[],
  only: readonly ProbeName[],
  secrets: readonly string[],
  told: Readonly<Record<string, ModelVerdict>> = {},
): Promise<ProbeResults> {
  if (keys.length === 0) throw new AbortRunError('BUDGET', 'no keys to probe');
  const names = labels(keys);
  const findings: Findings[] = names.map((name) => createFindings(name, secrets));
  const responses: KeyResponses[] = keys.map(() => keyResponses());
  const models: Array<ModelVerdict | undefined> = names.map((name) => told[name]);
  const runOf = (i: number, probe: ProbeName, f = findings[i]!): ProbeRun => {
    const subject = { probe, plan: keys[i]!.plan.name, key: names[i]! };
    return { ctx, k: keys[i]!, f, subject, seriesName: seriesName(subject), answers: [] };
  };
  const wants = (p: ProbeName): boolean => only.includes(p);

  // Isolation spends the key with the highest minute figure: with a shared bucket, that count exceeds every other plan's.
  const spender = keys.reduce((best, k, i) => (k.plan.perMinute > keys[best]!.plan.perMinute ? i : best), 0);
  const runMinute = async (i: number, turn: number): Promise<void> => {
    const isolate = wants('isolation') && i === spender && keys.length > 1;
    if (!wants('minute') && !isolate) return;
    // Without the minute probe selected, its verdicts go to scratch findings: only isolation is reported.
    const run = runOf(i, 'minute', wants('minute') ? findings[i] : createFindings(names[i]!, secrets));
    ctx.progress({
      phase: `quota ${names[i]}: minute`,
      done: turn,
      total: keys.length,
      etaMs: 2 * ctx.windows.minuteSeconds * 1000,
    });
    const others = keys.map((_, j) => j).filter((j) => j !== i);
    const otherRuns = others.map((j) => ({ run: runOf(j, 'isolation'), model: models[j] }));
    const isolation = isolationOf(run);
    const spend = isolate ? (count: WindowCount) => probeIsolation(isolation, count, otherRuns) : undefined;
    const minute = minuteOf(run);
    await judged(run, responses[i]!, 'minute', MINUTE_RULES, minute, (seen) => probeMinute(run, seen, spend));
    models[i] = minute.model ?? models[i];
    for (const [n, j] of others.entries()) judgeResponses(otherRuns[n]!.run, responses[j]!);
    // Judged into the spender's own findings, whether or not the minute probe's are reported; why the minute
    // probe ended early is isolation's why too (it rides on the minute's spent window).
    const ended = minuteEnded(minute);
    if (isolate)
      findings[i]!.judge(ISOLATION_RULES, ended ? { ...isolation, cut: ended } : isolation, PROBE_CHECKS.isolation);
  };
  if (wants('isolation') && keys.length < 2)
    findings[0]!.judge(ISOLATION_RULES, isolationOf(runOf(0, 'isolation'), true));

  // Minute probes go one key at a time, the spender first (its isolation request reaches keys still idle);
  // each key's burst and day probes start as soon as its own minute probe is done, beside the others'
  // minute probes (separate keys): the longest day count starts early and nothing waits for it.
  const order = [spender, ...keys.map((_, i) => i).filter((i) => i !== spender)];
  let minuteTurn: Promise<void> = Promise.resolve();
  let stopped: unknown;
  const chains = order.map(async (i, turn) => {
    const mine = minuteTurn.then(() => (stopped === undefined ? runMinute(i, turn) : undefined));
    minuteTurn = mine.catch(() => undefined);
    try {
      await mine;
      const burst = runOf(i, 'burst');
      if (wants('burst') && stopped === undefined)
        await judged(burst, responses[i]!, 'burst', BURST_RULES, burstOf(burst, models[i]), (seen) =>
          probeBurst(burst, seen),
        );
      const day = runOf(i, 'day');
      if (wants('day') && stopped === undefined)
        await judged(day, responses[i]!, 'day', DAY_RULES, dayOf(day, models[i]), (seen) => probeDay(day, seen));
    } catch (error) {
      stopped ??= error; // the other chains stop before their next probe
      throw error;
    }
  });
  await Promise.allSettled(chains);
  if (stopped !== undefined) throw stopped;
  judgeHeld(ctx, responses);

  for (const [i, f] of findings.entries()) {
    for (const probe of only) {
      if (probe === 'isolation' && i !== spender) continue;
      // A safety net: every check a selected probe owns has a result, never silently absent (findings.ts).
      f.judge([], {}, PROBE_CHECKS[probe]);
    }
  }
  ctx.progress({ phase: 'quota', done: keys.length, total: keys.length, etaMs: 0, message: 'done' });
  return { checks: findings.flatMap((f) => f.results()), series: ctx.series, subjects: ctx.subjects };
}
