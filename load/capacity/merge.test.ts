import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../core/errors.ts';
import { mergeResults } from './merge.ts';
import {
  canaryLine,
  parseCanaryLines,
  parseRunnerResults,
  resultLine,
  type RunnerResult,
  type RunnerStep,
} from './result.ts';

const run = {
  target: 'http://127.0.0.1:1/v1',
  plannedRate: 100,
  slo: 'p99<500ms',
  minHeadroom: 1,
  scale: 1,
  topRate: 200,
  stepCount: 2,
  canaryStep: 1,
  canaries: 0,
  canariesRequested: true,
};
const stepOf = (index: number, share: number, requests: number, p99: number): RunnerStep => ({
  index,
  offeredRate: 100,
  share,
  seconds: 10,
  requests,
  failed: 1,
  dropped: 2,
  below429: 0,
  unexpected4xx: 1,
  percentilesMs: { '99': p99 },
});
const runner = (segment: string, share: number, p99: number): RunnerResult => ({
  tool: 'petcert-capacity',
  version: 1,
  run,
  segment,
  steps: [stepOf(0, share, 500, p99)],
  canaries: [],
});

describe('mergeResults', () => {
  it('adds counts; a percentile of several runners is their largest, marked an upper bound', () => {
    const m = mergeResults([runner('0:1/2', 0.5, 30), runner('1/2:1', 0.5, 80)]);
    expect(m.steps[0]).toMatchObject({
      requests: 1000,
      failed: 2,
      dropped: 4,
      unexpected4xx: 2,
      percentilesMs: { '99': 80 },
      percentiles: 'upper-bound',
      coverage: 1,
      runners: 2,
    });
  });
  it('one runner: exact', () => {
    expect(mergeResults([runner('0:1', 1, 30)]).steps[0]!.percentiles).toBe('exact');
  });
  it('reports a missing runner as coverage < 1, and refuses overlapping segments', () => {
    expect(mergeResults([runner('0:1/3', 1 / 3, 30)]).steps[0]!.coverage).toBeCloseTo(1 / 3);
    expect(() => mergeResults([runner('0:1/2', 0.5, 1), runner('0:1/2', 0.5, 1)])).toThrow(ConfigError);
    expect(() => mergeResults([])).toThrow(ConfigError);
  });
  it('refuses runners not given one sequence (their iteration numbers overlapped); lines without the field pass', () => {
    const told = (segment: string, sequence: string | null): RunnerResult => ({ ...runner(segment, 0.5, 1), sequence });
    expect(mergeResults([told('0:1/2', '0,1/2,1'), told('1/2:1', '0,1/2,1')]).runners).toBe(2);
    expect(() => mergeResults([told('0:1/2', null), told('1/2:1', null)])).toThrow('0:1/2: none; 1/2:1: none');
    expect(() => mergeResults([told('0:1/2', '0,1/2,1'), told('1/2:1', '0,1/4,1/2,1')])).toThrow(ConfigError);
    expect(mergeResults([told('0:1', null)]).runners).toBe(1);
    expect(mergeResults([runner('0:1/2', 0.5, 1), runner('1/2:1', 0.5, 1)]).runners).toBe(2);
  });
});

describe('result lines', () => {
  it('are found anywhere on a line (kubectl logs prefixes), and bad ones name the line', () => {
    const r = runner('0:1', 1, 30);
    expect(parseRunnerResults(`noise\npod-1 | ${resultLine(r)}\n`, 'log')).toEqual([r]);
    expect(() => parseRunnerResults(`${resultLine(r).slice(0, 60)}\n`, 'log')).toThrow('log:1');
  });
  it('canary lines survive logfmt quoting (no double quotes inside)', () => {
    const c = {
      plan: 'free',
      perMinute: 40,
      step: 3,
      sent: 50,
      windows: [{ reset: 17, admitted: 40, rejected: 10 }],
      missingRetryAfter: 0,
      transportErrors: 0,
    };
    const logfmt = `time="2026-11-23T17:00:00Z" level=info msg="${canaryLine(c)}" source=console`;
    expect(parseCanaryLines(logfmt, 'log')).toEqual([c]);
    expect(parseCanaryLines(canaryLine(c), 'log')).toEqual([c]);
  });
});
