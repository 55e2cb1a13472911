import { describe, expect, it } from 'vitest';
import type { MergedStep } from './merge.ts';
import { parseSlo } from './slo.ts';
import { boundOf, judgeCapacity, CAPACITY_CHECKS } from './checks.ts';
import { capacityVerdict, judgeStep, shouldStop, type VerdictInput } from './verdict.ts';

const slo = parseSlo();
const step = (index: number, offeredRate: number, over: Partial<MergedStep> = {}): MergedStep => ({
  index,
  offeredRate,
  seconds: 10,
  requests: offeredRate * 10,
  failed: 0,
  dropped: 0,
  below429: 0,
  unexpected4xx: 0,
  percentilesMs: { '50': 5, '95': 20, '99': 40 },
  percentiles: 'exact',
  coverage: 1,
  runners: 1,
  ...over,
});
const input = (over: Partial<VerdictInput> = {}): VerdictInput => ({
  plannedRate: 100,
  slo,
  sloText: 'default',
  minHeadroom: 1,
  generator: { limit: 10_000, atLeast: true },
  scale: 1,
  topRate: 200,
  ...over,
});
/** capacity.headroom's outcome over the run (checks.ts): the verdict lives in the rule, not in a word of the summary. */
const headroomOf = (v: ReturnType<typeof capacityVerdict>) =>
  judgeCapacity({ capacity: v, canaries: { skipped: { reason: 'none' } } }).find(
    (c) => c.id === CAPACITY_CHECKS.headroom.id,
  )!.outcome;
const slow = { percentilesMs: { '50': 200, '95': 400, '99': 900 } };

describe('judgeStep', () => {
  it('ok: SLO met and achieved ≥ 95 % of offered', () => {
    expect(judgeStep(step(0, 100, { requests: 950 }), slo, { limit: null, atLeast: false }).verdict).toBe('ok');
  });
  it('slo: a broken percentile, or errors (5xx, transport, timeouts) at the bound', () => {
    expect(judgeStep(step(0, 100, slow), slo, { limit: null, atLeast: false }).breaches).toEqual([
      'p95 400 ms ≥ 250 ms',
      'p99 900 ms ≥ 500 ms',
    ]);
    expect(judgeStep(step(0, 100, { failed: 5 }), slo, { limit: null, atLeast: false }).verdict).toBe('slo');
  });
  it('generator: dropped iterations while the target answered within the SLO', () => {
    const j = judgeStep(step(0, 100, { requests: 800, dropped: 200 }), slo, { limit: null, atLeast: false });
    expect(j.verdict).toBe('generator');
  });
  it('generator: above the calibrated limit, whatever the latency (never blamed on the target)', () => {
    expect(judgeStep(step(0, 300, slow), slo, { limit: 250, atLeast: false }).verdict).toBe('generator');
    expect(judgeStep(step(0, 300, slow), slo, { limit: 250, atLeast: true }).verdict).toBe('slo');
  });
});

describe('capacityVerdict', () => {
  it('sustained = the highest ok step below the first broken one; headroom = sustained / planned', () => {
    const v = capacityVerdict([step(0, 50), step(1, 100), step(2, 150, slow), step(3, 200, slow)], input());
    expect([v.sustainedRate, v.breakingRate, v.headroom]).toEqual([100, 150, 1]);
    expect(headroomOf(v)).toBe('pass');
    expect(
      headroomOf(capacityVerdict([step(0, 50), step(1, 100), step(2, 150, slow)], input({ minHeadroom: 1.2 }))),
    ).toBe('fail');
  });
  it('a step that passes by chance after the break does not raise the sustained rate', () => {
    const v = capacityVerdict([step(0, 50), step(1, 100, slow), step(2, 150)], input());
    expect(v.sustainedRate).toBe(50);
  });
  it('says "generator-bound at X; use --emit-testrun" when the generator saturates first', () => {
    const v = capacityVerdict([step(0, 50), step(1, 100, { requests: 700, dropped: 300 })], input());
    expect(boundOf(v)?.code).toBe('GENERATOR_BOUND');
    expect(headroomOf(v)).toBe('skip');
    expect(v.summary).toContain('generator-bound at 100 req/s; use --emit-testrun');
    expect(v.breakingRate).toBeNull();
  });
  it('scaled to keys: all steps ok but below min-headroom × planned is keys-bound, not a failure', () => {
    const v = capacityVerdict([step(0, 20), step(1, 45)], input({ scale: 0.5, topRate: 45 }));
    expect(boundOf(v)?.code).toBe('KEYS_BOUND');
    expect(headroomOf(v)).toBe('skip');
    expect(v.summary).toContain('scaled to keys');
  });
  it("the summary states the figures, never a verdict word (the report's verdict over the checks is the verdict)", () => {
    const v = capacityVerdict([step(0, 50), step(1, 100), step(2, 150, slow)], input({ minHeadroom: 1.2 }));
    expect(v.summary).toMatch(/^planned 100 req\/s; sustained 100 req\/s/);
    expect(v.summary).not.toMatch(/PASS|FAIL/);
  });
  it('stops after two broken steps or a generator-bound one', () => {
    const j = (o: Partial<MergedStep>) => judgeStep(step(0, 100, o), slo, { limit: null, atLeast: false });
    expect(shouldStop([j({}), j(slow)])).toBe(false);
    expect(shouldStop([j(slow), j({}), j(slow)])).toBe(true);
    expect(shouldStop([j({ requests: 500, dropped: 500 })])).toBe(true);
  });
});
