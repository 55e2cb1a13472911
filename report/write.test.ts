import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { daySeries, fixtureReport } from '../testkit/report/fixtures.ts';
import { reportJson, writeReport } from './write.ts';

describe('writeReport', () => {
  test('report.json, junit.xml and report.html, every one scrubbed of the secrets', () => {
    const dir = mkdtempSync(join(tmpdir(), 'petcert-write-'));
    const secret = 'sk_live_abcdef123456';
    const report = fixtureReport({ target: `http://127.0.0.1:1/v1?leak=${secret}` });
    writeReport(dir, report, [secret]);
    expect(readdirSync(dir).sort()).toEqual(['junit.xml', 'report.html', 'report.json']);
    for (const name of readdirSync(dir)) {
      const text = readFileSync(join(dir, name), 'utf8');
      expect(text).not.toContain(secret);
      expect(text).toContain('***');
    }
  });
});

describe('reportJson', () => {
  test('round-trips, with or without series, empty series included', () => {
    for (const report of [
      fixtureReport(),
      fixtureReport({ series: undefined }),
      fixtureReport({ series: {} }),
      fixtureReport({ series: { 'minute:free': [] } }),
    ]) {
      expect(JSON.parse(reportJson(report))).toEqual(JSON.parse(JSON.stringify(report)));
    }
  });

  test('one line per sample keeps a 100,000-sample probe compact', () => {
    const series = { 'day:business': daySeries(1000, 100_000) };
    const text = reportJson(fixtureReport({ series }));
    expect(text.split('\n').length).toBeLessThan(100_000 + 200);
    expect(text.length).toBeLessThan(JSON.stringify(series, null, 2).length / 1.4);
  });
});
