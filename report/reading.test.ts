// Every rendering names the reading the quota counts were judged under (report.json `reading`).
import { describe, expect, it } from 'vitest';
import { readingOf } from '../load/probes/reading.ts';
import { fixtureReport } from '../testkit/report/fixtures.ts';
import { verdictLines } from './console.ts';
import { toHtml } from './html.ts';
import { toJUnit } from './junit.ts';
import { readingLine, type CertifyReport, type Report } from './model.ts';

/** A certify report (the fixture's kind) judged under `declared`. */
const judged = (declared?: 'token-bucket'): Report => ({
  ...(fixtureReport() as CertifyReport),
  reading: readingOf(declared),
});

const WINDOW = "Quotas judged under the window reading (at most N in any window's length)";
const BUCKET = 'Quotas judged as a token bucket (capacity N, N per window), as declared';

describe('the reading in every rendering', () => {
  it('the console, JUnit and HTML say the window reading when nothing was declared', () => {
    const report = judged();
    expect(readingLine(report)).toBe(WINDOW);
    expect(verdictLines(report)).toContain(`  ${WINDOW}`);
    expect(toJUnit(report)).toContain(`<property name="reading" value="${WINDOW.replace(/'/g, '&apos;')}"/>`);
    expect(toHtml(report)).toContain(
      '<p class="reading">Quotas judged under the window reading (at most N in any window&#39;s length)</p>',
    );
  });

  it('they say the declared bucket when one was', () => {
    const report = judged('token-bucket');
    expect(verdictLines(report).some((l) => l.startsWith(`  ${BUCKET}`))).toBe(true);
    expect(toJUnit(report)).toContain('judged as a token bucket (capacity N, N per window), as declared');
    expect(toHtml(report)).toContain('judged as a token bucket (capacity N, N per window), as declared');
  });

  it('an older report without a reading renders none', () => {
    expect(readingLine(fixtureReport())).toBeUndefined();
    expect(toJUnit(fixtureReport())).not.toContain('name="reading"');
  });
});
