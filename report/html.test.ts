import { describe, expect, test } from 'vitest';
import { daySeries, fixtureReport, HOSTILE, minuteSeries } from '../testkit/report/fixtures.ts';
import { dayFrameOf, toHtml } from './html.ts';
import { dayWindows, expectedStaircase, retryAfterWaits, thin } from './html-plot.ts';
import { escapeHtml } from './html-escape.ts';

describe('toHtml escaping', () => {
  const html = toHtml(fixtureReport());

  test('a hostile body, header, title, id and probe name inject no markup', () => {
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/<img/i);
    expect(html).not.toContain('onerror="');
    expect(html).not.toContain('window.__pwned=1</script>');
    expect(html).toContain(escapeHtml(HOSTILE));
  });

  test('forbids scripts and network with a Content-Security-Policy', () => {
    expect(html).toMatch(/<meta http-equiv="Content-Security-Policy" content="default-src 'none';/);
    expect(html).not.toMatch(/https?:\/\/(?!127\.0\.0\.1)/);
  });

  test('escapeHtml covers every markup-significant character', () => {
    expect(escapeHtml(`<>&"'\``)).toBe('&#60;&#62;&#38;&#34;&#39;&#96;');
  });
});

describe('toHtml content', () => {
  test('verdict at the top: fail, pass, incomplete', () => {
    const failing = toHtml(fixtureReport());
    expect(failing.indexOf('data-verdict="fail"')).toBeLessThan(failing.indexOf('id="checks"'));
    const passing = fixtureReport();
    // A skipped MUST check is not a pass: the fixture's one is left out of the passing report.
    passing.checks = passing.checks.filter((c) => c.level !== 'MUST' || c.outcome === 'pass');
    expect(toHtml(passing)).toContain('data-verdict="pass"');
    expect(toHtml({ ...passing, aborted: { code: 'UNREACHABLE', message: 'gone' } })).toContain(
      'data-verdict="incomplete"',
    );
    const unjudged = toHtml({ ...fixtureReport(), checks: fixtureReport().checks.filter((c) => c.outcome !== 'fail') });
    expect(unjudged).toContain('data-verdict="incomplete"');
    expect(unjudged).toMatch(
      /MUST checks not judged \(1\)<\/h2><ul><li><a href="#row-check-quota_day_exact_pro_"><code>quota.day.exact\[pro\]<\/code><\/a>: production target/,
    );
    expect(
      toHtml({
        ...passing,
        checks: [...passing.checks, { ...fixtureReport().checks[4]!, fix: 'raise --budget to 9' }],
        allowIncomplete: true,
      }),
    ).toContain('INCOMPLETE — MUST checks not judged (allowed by --allow-incomplete)');
  });

  test('a check failing for several causes lists them', () => {
    const report = fixtureReport();
    report.checks.find((c) => c.id === 'list.limit-max')!.causes = [
      { cause: 'GET /v1/pets → 200: <b>N</b>', count: 3 },
      { cause: 'POST /v1/pets → 400: x', count: 1 },
    ];
    expect(toHtml(report)).toContain(
      '<p class="note">2 distinct causes (one example of each below, up to five):</p><ul class="causes"><li><code>GET /v1/pets → 200: &#60;b&#62;N&#60;/b&#62;</code> ×3</li>',
    );
  });

  test('--fail-on should turns a SHOULD finding into a failure', () => {
    const passing = fixtureReport();
    passing.checks = passing.checks.filter((c) => c.level !== 'MUST' || c.outcome !== 'fail');
    expect(toHtml(passing, 'should')).toContain('data-verdict="fail"');
  });

  test('failures carry request, response and curl; table has level, spec ref, outcome', () => {
    const html = toHtml(fixtureReport());
    expect(html).toContain('<h4>Request</h4>');
    expect(html).toContain('<h4>Response</h4>');
    expect(html).toContain('curl -i -X GET');
    expect(html).toMatch(/<td class="level MUST">MUST<\/td><td>§8.2<\/td><td class="outcome fail">fail<\/td>/);
    expect(html).toMatch(/<td class="outcome finding">finding<\/td>/);
    expect(html).toContain('id="observe"');
    expect(html).toContain('<tr><th>Windows</th><td>minute = 1 s, day = 10 s</td></tr>');
    expect(html).toContain('free: 10/minute, 50/day · enterprise: custom');
  });

  test('one remaining plot per probe, plus a cumulative plot for the day probe', () => {
    const html = toHtml(fixtureReport());
    expect(html.match(/<svg class="plot"/g)).toHaveLength(4);
    expect(html).toMatch(/day quota 50, red line\); counted per day window/);
    expect(html).toContain('data-probe="day:free-cumulative"');
    expect(html).toMatch(/class="quota"/);
    expect(html).toMatch(/class="wait"/);
    expect(html).toMatch(/class="rejected"/);
  });

  test("the day frame: quota from the report's plan table, day windows from the server's own statements", () => {
    const plans = { windows: { minuteSeconds: 1, daySeconds: 10 }, plans: { free: { perMinute: 10, perDay: 50 } } };
    const samples = daySeries(10, 50); // ends with day 429s whose Retry-After is 30 s
    const last429 = samples.find((s) => s.status === 429)!;
    expect(dayFrameOf(fixtureReport({ plans }), 'quota/day:free', samples)).toEqual({
      quota: 50,
      daySeconds: 10,
      dayEnd: Math.round(last429.t / 1000 + 30),
    });
    const announced = samples.map((s, i) => (i === 3 ? { ...s, limit: 50, reset: 1_700_000_007 } : s));
    expect(dayFrameOf(fixtureReport({ plans }), 'day:free', announced).dayEnd).toBe(1_700_000_007);
    expect(dayFrameOf(fixtureReport({ plans: undefined }), 'day:free', samples)).toEqual({});
    expect(dayFrameOf(fixtureReport({ plans }), 'day:gold', samples)).toEqual({});
  });

  test('what a series is of comes from report.subjects when present, never from its name', () => {
    const plans = { windows: { minuteSeconds: 1, daySeconds: 10 }, plans: { free: { perMinute: 10, perDay: 50 } } };
    const samples = daySeries(10, 50);
    const subjects = { 'quota/day:free#2': { probe: 'day', plan: 'free', key: 'free#2', part: 'quota' } };
    // "free#2" is no plan: read off the name it would be; read from the subject it is the second Free key.
    expect(dayFrameOf(fixtureReport({ plans }), 'quota/day:free#2', samples)).toEqual({});
    expect(dayFrameOf(fixtureReport({ plans, subjects }), 'quota/day:free#2', samples).quota).toBe(50);
    const html = toHtml(fixtureReport({ plans, series: { 'quota/day:free#2': samples }, subjects }));
    expect(html).toContain('data-probe="quota/day:free#2-cumulative"');
  });

  test('k6 summary figures when present', () => {
    const k6 = {
      metrics: {
        http_req_duration: {
          type: 'trend',
          contains: 'time',
          values: { avg: 12.5, 'p(95)': 30 },
          thresholds: { 'p(95)<500': { ok: true } },
        },
      },
    };
    const html = toHtml(fixtureReport({ k6 }));
    expect(html).toContain('http_req_duration');
    expect(html).toContain('p(95)=30 ms');
    expect(toHtml(fixtureReport())).not.toContain('id="k6"');
  });

  test('a 100,000-sample day probe renders quickly and stays small', () => {
    const big = daySeries(1000, 100_000);
    const started = Date.now();
    const html = toHtml(fixtureReport({ series: { 'day:business': big } }));
    expect(Date.now() - started).toBeLessThan(5000);
    expect(html.length).toBeLessThan(1_500_000);
  });
});

describe('plot data', () => {
  test('a correct server draws exactly the expected staircase', () => {
    const samples = minuteSeries(60, 10);
    const expected = expectedStaircase(samples);
    samples.forEach((s, i) => expect(expected[i]).toBe(s.remaining));
  });

  test('a stuck Remaining departs from the staircase', () => {
    const stuck = minuteSeries(60, 0).map((s) => ({ ...s, remaining: 59 }));
    const expected = expectedStaircase(stuck);
    expect(expected[30]).toBe(29);
    expect(stuck[30]!.remaining).toBe(59);
  });

  test('day windows: fixed length from one known end; unknown windows are one', () => {
    const at = (sec: number) => ({ t: sec * 1000, status: 200 });
    const samples = [at(95), at(99.9), at(100), at(109), at(110), at(121)];
    expect(dayWindows(samples, { daySeconds: 10, dayEnd: 110 })).toEqual([-2, -2, -1, -1, 0, 1]);
    expect(dayWindows(samples, { daySeconds: 10 })).toEqual([0, 0, 0, 0, 0, 0]);
  });

  test('Retry-After waits merge when they overlap', () => {
    const samples = [
      { t: 0, status: 429, retryAfter: 2 },
      { t: 1000, status: 429, retryAfter: 2 },
      { t: 5000, status: 429, retryAfter: 1 },
      { t: 5500, status: 200 },
    ];
    expect(retryAfterWaits(samples, [0, 1, 5, 5.5])).toEqual([
      [0, 3],
      [5, 6],
    ]);
  });

  test('thinning keeps every column bounded and keeps the 429s', () => {
    const n = 20_000;
    const xs = Array.from({ length: n }, (_, i) => i);
    const ys = xs.map((i) => n - i);
    const statuses = xs.map((i) => (i % 5000 === 4999 ? 429 : 200));
    const kept = thin(xs, ys, statuses, 100);
    expect(kept.length).toBeLessThanOrEqual(500);
    for (const i of [4999, 9999, 14999, 19999]) expect(kept).toContain(i);
  });
});

describe('certify layout', () => {
  test('a part summary for prefixed check ids; navigation only to sections present', () => {
    const report = fixtureReport({ kind: 'certify', k6: undefined });
    report.checks = report.checks.map((c, i) => ({ ...c, id: `${i < 3 ? 'conform[free]' : 'quota'}/${c.id}` }));
    const html = toHtml(report);
    expect(html).toMatch(
      /<tr class="fail"><td><code>conform\[free\]<\/code><\/td><td>3<\/td><td>1<\/td><td>1<\/td><td>1<\/td><td>0<\/td><\/tr>/,
    );
    expect(html).toContain('<a href="#quota">Quota plots</a>');
    expect(html).not.toContain('href="#k6"');
    expect(toHtml(fixtureReport({ kind: 'quota', createdIds: undefined })).includes('class="checks parts"')).toBe(
      false,
    );
  });

  test('the part a check came from is read from its `part` when present, not sliced off its id', () => {
    const report = fixtureReport({ kind: 'certify', k6: undefined });
    // A part label may itself hold a slash (a key variable's name): the value says where it ends.
    report.checks = report.checks.map((c) => ({ ...c, id: `conform[a/b]/${c.id}`, part: 'conform[a/b]' }));
    expect(toHtml(report)).toContain('<td><code>conform[a/b]</code></td>');
  });
});

describe('a hand-edited report.json', () => {
  test('even level and outcome, typed by us, are escaped when rendered', () => {
    const report = fixtureReport();
    const forged = { ...report.checks[1]!, level: '<b onclick=x>' as never, outcome: 'fail' as const };
    const html = toHtml({ ...report, checks: [forged] });
    expect(html).not.toContain('<b onclick');
  });
});
