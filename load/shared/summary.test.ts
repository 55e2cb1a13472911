// The summary reader on both of k6's shapes (as real k6 v1.8.1/v2.2.0 hand them over; the e2e test
// load/k6-summary.e2e.test.ts runs them for real), the verdict, the marked line and its collection.
import { describe, expect, it } from 'vitest';
import {
  collectSummaries,
  petcertSummary,
  readK6Summary,
  summaryLine,
  SUMMARY_MARKER,
  type K6MachineReadableSummary,
  type K6SummaryData,
} from './summary.ts';

const legacy = (over: { reqs?: number; checkFails?: number; thresholdOk?: boolean } = {}): K6SummaryData => ({
  metrics: {
    http_reqs: {
      type: 'counter',
      values: { count: over.reqs ?? 4, rate: 2 },
      thresholds: { 'count>0': { ok: (over.reqs ?? 4) > 0 } },
    },
    http_req_duration: { type: 'trend', values: { avg: 2, min: 1, med: 2, max: 3, 'p(90)': 3, 'p(95)': 3 } },
    http_req_failed: { type: 'rate', values: { rate: 0, passes: 0, fails: 4 } },
    checks: {
      type: 'rate',
      values: { rate: 1, passes: 2, fails: 0 },
      thresholds: { 'rate==1': { ok: over.thresholdOk ?? true } },
    },
  },
  root_group: {
    checks: [{ name: 'a', passes: 1, fails: 0 }],
    groups: [{ checks: [{ name: 'b', passes: 1, fails: over.checkFails ?? 0 }] }],
  },
  state: { testRunDurationMs: 1500 },
});

const machine = (over: { reqs?: number; checkFails?: number } = {}): K6MachineReadableSummary => ({
  version: '1.0.0',
  config: { duration: 1.5 },
  metadata: { k6_version: '2.2.0' },
  results: {
    checks: {
      metrics: [{ name: 'checks_total', type: 'counter', values: { count: 2 } }],
      results: [
        { name: 'a', passes: 1, fails: 0 },
        { name: 'b', passes: 1, fails: over.checkFails ?? 0 },
      ],
    },
    metrics: [
      { name: 'http_reqs', type: 'counter', values: { count: over.reqs ?? 4 } },
      { name: 'http_req_duration', type: 'trend', values: { avg: 2, min: 1, med: 2, max: 3, p90: 3, p95: 3 } },
      { name: 'http_req_failed', type: 'rate', values: { matches: 0, rate: 0, total: 4 } },
    ],
  },
});

describe('readK6Summary', () => {
  it('reads both shapes into the same metrics (legacy names) and checks; only the legacy one has thresholds', () => {
    const l = readK6Summary(legacy());
    const m = readK6Summary(machine());
    expect(l).toMatchObject({
      shape: 'legacy',
      durationMs: 1500,
      thresholds: { 'http_reqs: count>0': true, 'checks: rate==1': true },
    });
    expect(m).toMatchObject({ shape: 'machine-readable', durationMs: 1500, thresholds: null });
    expect(m.checks).toEqual(l.checks);
    expect(m.metrics.http_req_duration).toEqual({ avg: 2, min: 1, med: 2, max: 3, 'p(90)': 3, 'p(95)': 3 });
    expect(m.metrics.http_req_failed).toEqual({ rate: 0, passes: 0, fails: 4 });
    expect(m.metrics.http_reqs).toEqual({ count: 4 });
  });
});

describe('petcertSummary', () => {
  it('passes only with requests sent, every check and threshold passed', () => {
    expect(petcertSummary('s', 't', legacy()).passed).toBe(true);
    expect(petcertSummary('s', 't', legacy({ reqs: 0 })).passed).toBe(false);
    expect(petcertSummary('s', 't', legacy({ checkFails: 1 })).passed).toBe(false);
    expect(petcertSummary('s', 't', legacy({ thresholdOk: false })).passed).toBe(false);
  });

  it('machine-readable: false on a failed check or no request, else null (no thresholds to judge)', () => {
    expect(petcertSummary('s', 't', machine()).passed).toBeNull();
    expect(petcertSummary('s', 't', machine({ reqs: 0 })).passed).toBe(false);
    expect(petcertSummary('s', 't', machine({ checkFails: 2 })).passed).toBe(false);
  });
});

describe('summaryLine and collectSummaries', () => {
  it('round-trips through k6 output, prefixed or not, without the keys', () => {
    const secret = 'pc_secret_key_0123456789';
    const data = legacy();
    data.root_group!.checks![0]!.name = `echo ${secret}`;
    const line = summaryLine('quota-minute', 'http://127.0.0.1:1/v1', data, [secret]);
    expect(line.startsWith(SUMMARY_MARKER)).toBe(true);
    expect(line).not.toContain(secret);
    const output = `some log\n${line}\n2026-01-01T00:00:00Z ${summaryLine('retry-after', 'x', machine(), [])}\n${SUMMARY_MARKER}not json\n`;
    expect(collectSummaries(output).map((s) => [s.script, s.passed])).toEqual([
      ['quota-minute', true],
      ['retry-after', null],
    ]);
  });
});
