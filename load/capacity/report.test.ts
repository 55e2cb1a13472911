import { describe, expect, it } from 'vitest';
import { exitCodeOf, verdictOf } from '../../report/model.ts';
import type { Merged } from './merge.ts';
import { capacityReport } from './report.ts';
import type { RunInfo } from './result.ts';

const run: RunInfo = {
  target: 'http://127.0.0.1:1/v1',
  plannedRate: 100,
  slo: 'p99<500ms',
  minHeadroom: 1,
  scale: 1,
  topRate: 100,
  stepCount: 1,
  canaryStep: 0,
  canaries: 1,
  canariesRequested: true,
};
const step = {
  index: 0,
  offeredRate: 100,
  seconds: 10,
  requests: 1000,
  failed: 0,
  dropped: 0,
  below429: 0,
  unexpected4xx: 0,
  percentilesMs: { '50': 5, '95': 9, '99': 10 },
  percentiles: 'exact' as const,
  coverage: 1,
  runners: 1,
};
const canary = (admitted: number, rejected: number) => ({
  plan: 'free',
  perMinute: 20,
  step: 0,
  sent: admitted + rejected,
  windows: [{ reset: 1, admitted, rejected }],
  missingRetryAfter: 0,
  transportErrors: 0,
});
const report = (r: Partial<RunInfo>, canaries: Merged['canaries']) =>
  capacityReport({
    version: 't',
    run: { ...run, ...r },
    merged: { steps: [step], canaries, runners: 1 },
    generator: { limit: null, atLeast: false },
    startedAt: '',
    finishedAt: '',
  });
const skipOf = (r: ReturnType<typeof report>) => r.checks.find((c) => c.id === 'capacity.quota.canary-exact')!;

describe('capacityReport: a canary that could not judge is never a PASS', () => {
  it('judged canaries and a held load: PASS, exit 0', () => {
    const r = report({}, [canary(20, 3)]);
    expect(r.aborted).toBeUndefined();
    expect(exitCodeOf(r)).toBe(0);
  });
  it.for([
    { why: 'a canary that met no 429', r: {}, canaries: [canary(12, 0)], fix: /--step-seconds/ },
    { why: '--no-canaries', r: { canariesRequested: false }, canaries: [], fix: /without --no-canaries/ },
    {
      why: 'no canary could be planned',
      r: { canaries: 0, canaryNeed: 'one spare free key' },
      canaries: [],
      fix: /^one spare free key$/,
    },
    { why: 'no canary reported', r: {}, canaries: [], fix: undefined },
  ])('$why: unjudged with its fix, the run INCOMPLETE (exit 4)', ({ r, canaries, fix }) => {
    const out = report(r, canaries);
    expect(skipOf(out)).toMatchObject({ outcome: 'skip', skipKind: 'unjudged' });
    if (fix) expect(skipOf(out).fix).toMatch(fix);
    // INCOMPLETE, exit 4, not a stop (docs/decisions/001): the run finished, a MUST check was not judged.
    expect(out.aborted).toBeUndefined();
    expect(verdictOf(out)).toBe('incomplete');
    expect(exitCodeOf(out)).toBe(4);
  });
  it('a failure still fails (exit 1) beside an unjudged check', () => {
    expect(exitCodeOf(report({}, [canary(25, 0)]))).toBe(1);
  });
});
