// A step's rare events (SLO errors, 429s below quota, other 4xx), counted by k6 as checks named for the
// event and the step (`failed s3`), as the latency histogram is (load/shared/histogram.ts): k6 sums a
// check by name across VUs and its summary lists each with its passes and fails. They were custom
// Counters, one per event and step: each costs every VU's runtime ≈ 4 KB (3 per step, 24 in a plain
// 8-step run; README.md, 10,000 keys), a check nothing until it is met. A 429 below quota is a failing
// check, so that the bundle's one threshold on k6's `checks` (rate==1) fails a plain `k6 run` on it.
import { EVERY_CHECK_PASSES } from '../shared/guards.ts';

export type StepEvent = 'failed' | 'below429' | 'unexpected4xx';

const NAMES: Record<StepEvent, string> = { failed: 'failed', below429: '429 below quota', unexpected4xx: '4xx' };

/** The check a step's event is counted by: `failed s3`, `429 below quota s3`, `4xx s3`. */
export const eventCheck = (event: StepEvent, step: number): string => `${NAMES[event]} s${step}`;

/** Whether the event's check passes: every one but a 429 below quota, which fails the `checks` threshold. */
export const eventPasses = (event: StepEvent): boolean => event !== 'below429';

/** The one threshold the events need: no check fails (the histogram's and the other events' always pass). */
export const EVENT_THRESHOLDS = EVERY_CHECK_PASSES;

type Checks = ReadonlyArray<{ name: string; passes: number; fails: number }>;

/**
 * A request of step `step` that got no HTTP answer (status 0), counted by k6's error text: few distinct
 * texts (x509, a refused connect, a proxy's answer), each a check met only when it happens.
 */
const NO_ANSWER = 'no answer';
export const noAnswerCheck = (step: number, error: string): string => `${NO_ANSWER} s${step}: ${error.slice(0, 200)}`;

/** k6's error texts of a step's unanswered requests, and how many had each. */
export function noAnswerErrors(checks: Checks, step: number): Record<string, number> {
  const prefix = `${NO_ANSWER} s${step}: `;
  return Object.fromEntries(
    checks.filter((c) => c.name.startsWith(prefix)).map((c) => [c.name.slice(prefix.length), c.passes]),
  );
}

/** How many times each event was met in a step, from k6's checks. */
export function eventCounts(checks: Checks, step: number): Record<StepEvent, number> {
  const count = (event: StepEvent): number => {
    const c = checks.find((x) => x.name === eventCheck(event, step));
    return c === undefined ? 0 : eventPasses(event) ? c.passes : c.fails;
  };
  return { failed: count('failed'), below429: count('below429'), unexpected4xx: count('unexpected4xx') };
}
