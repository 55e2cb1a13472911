import { describe, expect, it } from 'vitest';
import type { CapacityStep, CapacityVerdict } from './capacity.ts';
import { capacitySection } from './html-capacity.ts';
import { toHtml } from './html.ts';
import type { Report } from './model.ts';

const step = (offeredRate: number, p99: number, verdict: CapacityStep['verdict']): CapacityStep => ({
  offeredRate,
  achievedRate: offeredRate,
  p50Ms: p99 / 4,
  p95Ms: p99 / 2,
  p99Ms: p99,
  errorRate: verdict === 'slo' ? 0.01 : 0,
  droppedIterations: 0,
  below_quota_429: 0,
  verdict,
  breaches: verdict === 'slo' ? ['p99 900 ms ≥ 500 ms'] : [],
  percentilesMs: { '50': p99 / 4, '95': p99 / 2, '99': p99 },
  percentiles: 'exact',
  requests: offeredRate * 10,
  unexpected4xx: 0,
  runners: 1,
  coverage: 1,
});
const capacity: CapacityVerdict = {
  plannedRate: 100,
  sustainedRate: 125,
  breakingRate: 150,
  headroom: 1.25,
  generatorLimit: 2000,
  slo: {
    latencyMs: { '95': 250, '99': 500 },
    errorRate: 0.005,
    achievedShare: 0.95,
    text: 'p95<250ms,p99<500ms,errors<0.5%',
  },
  steps: [step(50, 5, 'ok'), step(100, 8, 'ok'), step(125, 20, 'ok'), step(150, 900, 'slo'), step(175, 1200, 'slo')],
  minHeadroom: 1,
  generatorLimitIsLowerBound: true,
  generatorBoundAt: null,
  scale: 1,
  keysBoundAt: null,
  summary: 'PASS: <b>demo</b>',
  mix: { free: 60, pro: 40 },
  keys: { free: 12, pro: 3 },
  notes: ['no canary for pro'],
  canaries: [
    {
      plan: 'free',
      perMinute: 40,
      step: 1,
      sent: 44,
      windows: [{ reset: 17, admitted: 41, rejected: 3 }],
      missingRetryAfter: 0,
      transportErrors: 0,
    },
  ],
};
const report: Report = {
  tool: 'petcert',
  version: '0',
  kind: 'capacity',
  target: 'http://127.0.0.1:1/v1',
  startedAt: '2026-01-01T00:00:00Z',
  finishedAt: '2026-01-01T00:01:00Z',
  seed: null,
  requests: 1,
  checks: [],
  capacity,
};

describe('the capacity section of report.html', () => {
  const html = toHtml(report);
  it('is linked from the page and plots latency, errors and achieved against the offered rate', () => {
    expect(html).toContain('<a href="#capacity">Capacity</a>');
    expect(html.match(/<svg class="plot capacity"/g)).toHaveLength(3);
    expect(html).toMatch(/aria-label="latency percentiles against offered rate"/);
  });
  it('marks the SLO lines, the planned rate and the knee', () => {
    const s = capacitySection(capacity);
    expect(s).toContain('p99 SLO 500 ms');
    expect(s).toContain('p95 SLO 250 ms');
    expect(s).toContain('SLO 0.50 %');
    expect(s).toContain('<title>planned 100 req/s</title>');
    expect(s).toContain('<title>knee: sustained 125 → breaking 150 req/s</title>');
  });
  it('lists the steps with their verdicts, and a canary window that over-admitted in red', () => {
    const s = capacitySection(capacity);
    expect(s.match(/<td class="outcome (pass|fail|finding)">/g)).toHaveLength(5);
    expect(s).toMatch(/<tr class="fail"><td>free<\/td><td>40<\/td><td>17<\/td><td>41<\/td>/);
  });
  it("shows the mix, its keys and the plan's notes", () => {
    const s = capacitySection(capacity);
    expect(s).toContain('free 60 req/s on 12 keys · pro 40 req/s on 3 keys');
    expect(s).toContain('no canary for pro');
  });
  it('escapes what it shows and runs no script', () => {
    expect(html).toContain('PASS: &#60;b&#62;demo&#60;/b&#62;');
    expect(html).not.toContain('<b>demo');
    expect(html).not.toMatch(/<script/i);
  });
  it('is absent from reports of other commands', () => {
    expect(toHtml({ ...report, kind: 'quota', capacity: undefined })).not.toContain('id="capacity"');
  });
});
