// Every check a quota run could not judge says why and what would let it be judged, in report.json, the
// JUnit <skipped> message and report.html alike: read from real probe runs (virtual time) against limiters
// that leave checks unjudged for different causes — a wait capped, a day quota never refusing, a day
// over-admitting, a 429 without Retry-After, a target too slow for its windows — never from hand-made results.
import { describe, expect, it } from 'vitest';
import { toHtml } from '../../report/html.ts';
import { escapeHtml } from '../../report/html-escape.ts';
import { skipMessage, toJUnit, xmlEscape } from '../../report/junit.ts';
import { isUnjudged, type CheckResult, type QuotaReport } from '../../report/model.ts';
import { runShape, type RunShape } from '../../testkit/load/shape-run.ts';

const windows = { minuteSeconds: 3, daySeconds: 45 };
const plans = { free: { perMinute: 6, perDay: 48 }, pro: { perMinute: 10, perDay: 60 } };
const fixed = { meter: 'first-use', headers: 'binding' } as const;

const RUNS: Array<[string, Partial<RunShape>]> = [
  ['--max-wait shorter than a minute window (every probe cut short)', { shape: fixed, maxWaitMs: 500 }],
  ['a day quota never enforced', { shape: { ...fixed, faults: { noDay: true } } }],
  ['a day quota admitting 20 more than its figure', { shape: { ...fixed, faults: { dayOverAdmit: 20 } } }],
  ['no Retry-After on a 429', { shape: { ...fixed, faults: { noRetryAfter: true } } }],
  ['a target too slow for its day window (1.4 s each way)', { shape: fixed, latencyMs: [1400, 1400] }],
];

/** Wordings that name no cause: a reader would have to look at other checks to learn why. */
const NON_REASON = /see the other checks|^not reached|^not run$|^\s*$/;

const reportOf = (checks: CheckResult[]): QuotaReport => ({
  kind: 'quota',
  tool: 'petcert',
  version: 'test',
  target: 'http://127.0.0.1:1/v1',
  startedAt: '2024-01-01T00:00:00Z',
  finishedAt: '2024-01-01T00:01:00Z',
  seed: null,
  requests: 0,
  checks,
});

describe('every unjudged result carries its own reason and fix in every rendering', () => {
  it.for(RUNS)('%s', async ([, extra]) => {
    const r = await runShape({ windows, plans, shape: fixed, ...extra });
    const report = reportOf(r.checks);
    const unjudged = report.checks.filter(isUnjudged);
    // The run leaves something unjudged, or this case proves nothing.
    expect(unjudged.length).toBeGreaterThan(0);
    const json = JSON.parse(JSON.stringify(report)) as QuotaReport;
    const junit = toJUnit(report);
    const html = toHtml(report);
    for (const c of unjudged) {
      expect(c.skipReason, c.id).toBeTypeOf('string');
      expect(c.skipReason!, c.id).not.toMatch(NON_REASON);
      expect(c.fix, `${c.id}: ${c.skipReason}`).toMatch(/\S/);
      expect(
        json.checks.find((x) => x.id === c.id),
        c.id,
      ).toMatchObject({ skipReason: c.skipReason, fix: c.fix });
      expect(skipMessage(c), c.id).toMatch(/^NOT JUDGED/);
      expect(junit, c.id).toContain(`<skipped message="${xmlEscape(skipMessage(c))}"/>`);
      expect(skipMessage(c)).toContain(`${c.skipReason} — fix: ${c.fix}`);
      expect(html, c.id).toContain(`not judged: ${escapeHtml(c.skipReason!)} — fix: ${escapeHtml(c.fix!)}`);
    }
  });
});
