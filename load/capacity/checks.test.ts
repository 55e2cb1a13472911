import { describe, expect, it } from 'vitest';
import { judgeCanaries } from './canary.ts';
import type { Unjudged } from '../../report/check.ts';
import { boundOf, CAPACITY_CHECKS, judgeCapacity } from './checks.ts';
import { parseSlo } from './slo.ts';
import { capacityVerdict } from './verdict.ts';
import type { MergedStep } from './merge.ts';

const step = (offeredRate: number, over: Partial<MergedStep> = {}): MergedStep => ({
  index: 0,
  offeredRate,
  seconds: 10,
  requests: offeredRate * 10,
  failed: 0,
  dropped: 0,
  below429: 0,
  unexpected4xx: 0,
  percentilesMs: { '95': 10, '99': 20 },
  percentiles: 'exact',
  coverage: 1,
  runners: 1,
  ...over,
});
const verdict = (steps: MergedStep[]) =>
  capacityVerdict(steps, {
    plannedRate: 100,
    slo: parseSlo(),
    sloText: '',
    minHeadroom: 1,
    generator: { limit: null, atLeast: false },
    scale: 1,
    topRate: 200,
  });
type Verdict = ReturnType<typeof verdict>;
/** The rules over a run's observation: canaries judged, or skipped with why (as report.ts builds it). */
type Canaries = ReturnType<typeof judgeCanaries> | null;
const capacityChecks = (
  v: Verdict,
  canaries: Canaries,
  skip: Unjudged | undefined,
  interrupted?: { done: number; total: number },
) => {
  const skipped = { skipped: skip ?? { reason: 'no canary ran' } };
  return judgeCapacity({ capacity: v, canaries: canaries ? { judged: canaries } : skipped, interrupted });
};
const canary = (admitted: number, rejected: number) => ({
  plan: 'free',
  perMinute: 40,
  step: 0,
  sent: admitted + rejected,
  windows: [{ reset: 1, admitted, rejected }],
  missingRetryAfter: 0,
  transportErrors: 0,
});

describe('capacity checks', () => {
  it('every check has an id, a level and a spec section', () => {
    for (const c of Object.values(CAPACITY_CHECKS))
      expect(c).toMatchObject({
        id: expect.stringMatching(/^capacity\./),
        level: 'MUST',
        specRef: expect.stringMatching(/§8/),
      });
  });
  it('a 429 on a key below quota fails; none passes', () => {
    const bad = capacityChecks(verdict([step(100, { below429: 3 })]), null, { reason: 'none' });
    expect(bad.find((c) => c.id === CAPACITY_CHECKS.below429.id)!.outcome).toBe('fail');
    expect(
      capacityChecks(verdict([step(100)]), null, { reason: 'none' }).find((c) => c.id === CAPACITY_CHECKS.below429.id)!
        .outcome,
    ).toBe('pass');
  });
  it('canaries: exact passes, over-admission fails, nothing judged is skipped with the reason', () => {
    const outcome = (findings: ReturnType<typeof judgeCanaries> | null) =>
      capacityChecks(verdict([step(100)]), findings, { reason: 'no spare key' }).find(
        (c) => c.id === CAPACITY_CHECKS.canaryExact.id,
      )!;
    expect(outcome(judgeCanaries([canary(40, 3)])).outcome).toBe('pass');
    expect(outcome(judgeCanaries([canary(41, 3)])).outcome).toBe('fail');
    expect(outcome(judgeCanaries([canary(20, 0)])).outcome).toBe('skip');
    expect(outcome(null)).toMatchObject({ outcome: 'skip', skipReason: 'no spare key' });
  });
  it('Retry-After is judged only when a canary received a 429', () => {
    const ra = (c: ReturnType<typeof canary>) =>
      capacityChecks(verdict([step(100)]), judgeCanaries([c]), undefined).find(
        (x) => x.id === CAPACITY_CHECKS.canaryRetryAfter.id,
      )!.outcome;
    expect(ra(canary(20, 0))).toBe('skip');
    expect(ra(canary(40, 3))).toBe('pass');
    expect(ra({ ...canary(40, 3), missingRetryAfter: 3 })).toBe('fail');
  });
  it('headroom below the minimum fails; a generator-bound run is skipped (no verdict), never failed', () => {
    const slow = { percentilesMs: { '95': 900, '99': 900 } };
    const head = (steps: MergedStep[]) =>
      capacityChecks(verdict(steps), null, { reason: '' }).find((c) => c.id === CAPACITY_CHECKS.headroom.id)!.outcome;
    expect(head([step(50), step(100), step(150)])).toBe('pass');
    expect(head([step(50), step(100, slow)])).toBe('fail');
    expect(head([step(50), step(100, { requests: 500, dropped: 500 })])).toBe('skip');
  });
  it('generator- or keys-bound: the headroom is unjudged with the reason and a fix, its rates kept beside it', () => {
    const v = verdict([step(50), step(100, { requests: 500, dropped: 500 })]);
    expect(boundOf(v)?.code).toBe('GENERATOR_BOUND');
    const head = capacityChecks(v, null, { reason: '' }).find((c) => c.id === CAPACITY_CHECKS.headroom.id)!;
    expect(head).toMatchObject({
      outcome: 'skip',
      skipKind: 'unjudged',
      skipReason: expect.stringContaining('generator-bound at 100 req/s'),
      fix: expect.stringContaining('--emit-testrun'),
    });
    expect(head.observed).toMatchObject({ plannedRate: 100, sustainedRate: 50 });
  });
  it('interrupted: a pass on the steps done becomes unjudged; a failure seen stays a failure', () => {
    const checks = capacityChecks(
      verdict([step(100, { below429: 2 }), step(150)]),
      judgeCanaries([canary(40, 3)]),
      undefined,
      { done: 2, total: 5 },
    );
    const of = (id: string) => checks.find((c) => c.id === id)!;
    expect(of(CAPACITY_CHECKS.below429.id).outcome).toBe('fail');
    for (const id of [
      CAPACITY_CHECKS.headroom.id,
      CAPACITY_CHECKS.canaryExact.id,
      CAPACITY_CHECKS.canaryRetryAfter.id,
    ]) {
      expect(of(id)).toMatchObject({
        outcome: 'skip',
        skipKind: 'unjudged',
        skipReason: 'not judged: the run was interrupted after 2 of 5 steps',
      });
    }
  });
});

describe('capacity.quota.below-quota-429 with nothing sent', () => {
  it('is unjudged, not a pass, when no step sent a request (it passed with no steps, or steps of 0 requests)', () => {
    for (const steps of [[], [step(100, { requests: 0 })]]) {
      const c = capacityChecks(verdict(steps), null, undefined).find((x) => x.id === CAPACITY_CHECKS.below429.id)!;
      expect({ outcome: c.outcome, kind: c.skipKind }).toEqual({ outcome: 'skip', kind: 'unjudged' });
    }
    expect(
      capacityChecks(verdict([step(100)]), null, undefined).find((x) => x.id === CAPACITY_CHECKS.below429.id)!.outcome,
    ).toBe('pass');
  });

  it('is unjudged, not a pass, when every request got no HTTP answer (x509, a proxy refusing: nothing reached the service)', () => {
    const unanswered = step(100, { failed: 1000, noAnswer: 1000, noAnswerErrors: { 'x509: unknown authority': 1000 } });
    const c = capacityChecks(verdict([unanswered]), null, undefined).find((x) => x.id === CAPACITY_CHECKS.below429.id)!;
    expect({ outcome: c.outcome, kind: c.skipKind, reason: c.skipReason }).toEqual({
      outcome: 'skip',
      kind: 'unjudged',
      reason: 'no load step got an HTTP answer',
    });
  });
});
