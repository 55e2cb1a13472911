import { describe, expect, it } from 'vitest';
import { parsePlansFile } from '../spec/plans.ts';
import { fixtureReport } from '../testkit/report/fixtures.ts';
import { toHtml } from './html.ts';
import type { CertifyReport, Sample } from './model.ts';
import { overAdmitted, overAdmittedText, windowsOver } from './over-admitted.ts';

const ok = (t: number): Sample => ({ t, status: 200 });

describe('windows over the figure', () => {
  it('counts each window of one length that admitted more than the figure, once', () => {
    // 5 within 900 ms of a 1 s window (figure 3), then 3 within a window: one window over.
    expect(windowsOver([0, 100, 200, 300, 900, 2000, 2100, 2200], 3, 1000)).toEqual([
      { admitted: 5, startMs: 0, spanMs: 900 },
    ]);
    expect(windowsOver([0, 1000, 2000, 3000], 1, 1000)).toEqual([]);
  });

  it("reads them from a report's own series, per key and quota", () => {
    const table = parsePlansFile({
      windows: { minuteSeconds: 1, daySeconds: 10 },
      plans: { free: { perMinute: 2, perDay: 4 } },
    });
    const series = { 'minute:free': [0, 100, 200].map(ok), 'day:free': [{ t: 300, status: 429 }, ok(5000), ok(5100)] };
    const subjects = {
      'minute:free': { probe: 'minute', plan: 'free', key: 'free' },
      'day:free': { probe: 'day', plan: 'free', key: 'free' },
    };
    const over = overAdmitted(series, subjects, table);
    expect(over).toEqual([
      { quota: 'minute', plan: 'free', key: 'free', figure: 2, admitted: 3, startMs: 0, spanMs: 200 },
      { quota: 'day', plan: 'free', key: 'free', figure: 4, admitted: 5, startMs: 0, spanMs: 5100 },
    ]);
    expect(overAdmittedText(over[1]!)).toBe("free, day: 5 admitted within 5.1 s (the plan's figure 4)");
  });

  it('the HTML lists them whatever the verdict', () => {
    const report: CertifyReport = {
      ...(fixtureReport() as CertifyReport),
      overAdmitted: [
        { quota: 'day', plan: 'free', key: 'free', figure: 60, admitted: 103, startMs: 0, spanMs: 36_600 },
      ],
    };
    expect(toHtml(report)).toContain('<li>free, day: 103 admitted within 36.6 s (the plan&#39;s figure 60)</li>');
    expect(toHtml(fixtureReport())).not.toContain('over-admitted');
  });

  it("the quota plot shades each window over the figure of the series' key, in the series' server time", () => {
    const series = { 'minute:free': [1000, 1100, 1200, 4000].map(ok) };
    const subjects = { 'minute:free': { probe: 'minute', plan: 'free', key: 'free' } };
    const over = [
      { quota: 'minute' as const, plan: 'free', key: 'free', figure: 2, admitted: 3, startMs: 1000, spanMs: 200 },
    ];
    const report: CertifyReport = { ...(fixtureReport() as CertifyReport), series, subjects, overAdmitted: over };
    expect(toHtml(report)).toContain('<rect class="over"');
    expect(toHtml(report)).toContain('<title>3 admitted within 0.2 s: over the minute figure 2</title>');
    // Another key's window, and none at all, shade nothing.
    expect(toHtml({ ...report, overAdmitted: [{ ...over[0]!, key: 'pro', plan: 'pro' }] })).not.toContain(
      '<rect class="over"',
    );
    expect(toHtml({ ...report, overAdmitted: [] })).not.toContain('<rect class="over"');
  });
});
