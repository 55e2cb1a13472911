import { describe, expect, test } from 'vitest';
import { formatDuration } from '../core/duration.ts';
import { createConsoleProgress, etaOf, progressLine, unjudgedLines, verdictLines } from './console.ts';
import { exitCodeOf, type Report } from './model.ts';
import { fixtureReport } from '../testkit/report/fixtures.ts';

function recorder(isTTY: boolean) {
  const chunks: string[] = [];
  return { stream: { isTTY, columns: 120, write: (t: string) => chunks.push(t) }, chunks };
}

describe('progress in a CI log (not a TTY)', () => {
  test('one line when a phase starts, one when it ends, and at most one per interval between', () => {
    let t = 0;
    const { stream, chunks } = recorder(false);
    const progress = createConsoleProgress({ stream, now: () => t, intervalMs: 5000 });
    for (let done = 0; done <= 100; done += 1) {
      t = done * 100; // 10 s in all
      progress.sink({ phase: 'quota free: minute', done, total: 100 });
    }
    const lines = chunks.join('').trim().split('\n');
    expect(lines).toHaveLength(3); // start, 5 s, 10 s (which is also the end, logged once)
    expect(lines[1]).toBe('[quota free: minute] 50/100 50% ETA 5s');
    expect(lines[0]).toBe('[quota free: minute] 0/100 0%');
    expect(lines.at(-1)).toMatch(/^\[quota free: minute\] 100\/100 100% done in 10s$/);
    expect(chunks.join('')).not.toContain('\x1b[');
  });

  test('each phase is logged on its own', () => {
    const { stream, chunks } = recorder(false);
    const progress = createConsoleProgress({ stream, now: () => 0 });
    progress.sink({ phase: 'a', done: 0 });
    progress.sink({ phase: 'b', done: 0 });
    progress.sink({ phase: 'a', done: 1 });
    expect(chunks).toEqual(['[a] 0 done\n', '[b] 0 done\n']);
  });
});

describe('progress on a terminal', () => {
  test('bars with ETA, redrawn in place, throttled', () => {
    let t = 0;
    const { stream, chunks } = recorder(true);
    const progress = createConsoleProgress({ stream, now: () => t, redrawMs: 100 });
    progress.sink({ phase: 'conform', done: 0, total: 10 });
    t = 50;
    progress.sink({ phase: 'conform', done: 5, total: 10 }); // throttled
    t = 2000;
    progress.sink({ phase: 'conform', done: 5, total: 10 });
    progress.done();
    expect(chunks).toHaveLength(3);
    expect(chunks[2]).toBe('\x1b[1F\x1b[J');
    expect(chunks[1]).toBe(
      `\x1b[1F\x1b[2K${'conform'.padEnd(26)} [${'#'.repeat(12)}${'.'.repeat(12)}] 5/10 50% ETA 2s\n\x1b[J`,
    );
  });

  test('a finished phase is written once above the live bars, then leaves the redraw', () => {
    let t = 0;
    const { stream, chunks } = recorder(true);
    const progress = createConsoleProgress({ stream, now: () => t, redrawMs: 0 });
    progress.sink({ phase: 'a', done: 0, total: 2 });
    progress.sink({ phase: 'b', done: 0, total: 2 });
    t = 1000;
    progress.sink({ phase: 'a', done: 2, total: 2 });
    const last = chunks.at(-1)!;
    expect(last.startsWith('\x1b[2F')).toBe(true);
    expect(last.indexOf('done in 1s')).toBeLessThan(last.indexOf('b '));
    t = 2000;
    progress.sink({ phase: 'b', done: 1, total: 2 });
    expect(chunks.at(-1)!.startsWith('\x1b[1F')).toBe(true);
    expect(chunks.at(-1)).not.toContain('a ');
  });

  test('a phase that went quiet before another started leaves the live block', () => {
    let t = 0;
    const { stream, chunks } = recorder(true);
    const progress = createConsoleProgress({ stream, now: () => t, redrawMs: 0 });
    progress.sink({ phase: 'conform: population', done: 0, message: 'creating pets' });
    t = 5000;
    progress.sink({ phase: 'quota free: minute', done: 0, total: 3 });
    t = 7000;
    progress.sink({ phase: 'quota pro: minute', done: 1, total: 3 });
    expect(chunks.at(-1)).toContain('quota pro: minute');
    expect(chunks.at(-1)).not.toContain('creating pets');
    expect(chunks.at(-1)).not.toContain('quota free: minute');
  });

  test('phases started together all stay live', () => {
    let t = 0;
    const { stream, chunks } = recorder(true);
    const progress = createConsoleProgress({ stream, now: () => t, redrawMs: 0 });
    for (const plan of ['free', 'pro', 'business']) {
      t += 2;
      progress.sink({ phase: `quota ${plan}: day`, done: 0, total: 100 });
    }
    t = 60_000;
    progress.sink({ phase: 'quota pro: day', done: 50, total: 100 });
    for (const plan of ['free', 'pro', 'business']) expect(chunks.at(-1)).toContain(`quota ${plan}: day`);
  });

  test('a terminal that reports 0 columns gets whole lines, not 40 characters', () => {
    const chunks: string[] = [];
    const progress = createConsoleProgress({
      stream: { isTTY: true, columns: 0, write: (c: string) => chunks.push(c) },
      now: () => 0,
    });
    progress.sink({ phase: 'quota business: day', done: 0, total: 100000, message: 'waiting for a fresh day window' });
    expect(chunks[0]).toContain('waiting for a fresh day window');
  });
});

describe('ETA and durations', () => {
  test("the runner's ETA wins; otherwise extrapolated", () => {
    expect(etaOf({ event: { phase: 'p', done: 1, total: 4, etaMs: 7 }, startedAt: 0 }, 100)).toBe(7);
    expect(etaOf({ event: { phase: 'p', done: 1, total: 4 }, startedAt: 0 }, 100)).toBe(300);
    expect(etaOf({ event: { phase: 'p', done: 0, total: 4 }, startedAt: 0 }, 100)).toBeUndefined();
  });

  test('formatDuration', () => {
    expect(formatDuration(5_400)).toBe('5s');
    expect(formatDuration(65_000)).toBe('1m05s');
    expect(formatDuration(3_720_000)).toBe('1h02m');
  });

  test('a message is appended', () => {
    expect(
      progressLine({ event: { phase: 'q', done: 1, message: 'waiting for Retry-After' }, startedAt: 0 }, 0, 0, false),
    ).toBe('[q] 1 done — waiting for Retry-After');
  });
});

describe('verdict lines', () => {
  test('failing checks listed with level, id and spec ref; the HTML path named', () => {
    const lines = verdictLines(fixtureReport(), { htmlPath: 'reports/latest/report.html' });
    expect(lines[0]).toBe('FAIL  petcert certify http://127.0.0.1:1/v1');
    expect(lines.some((l) => l.startsWith('  ✗ MUST list.limit-max (§8.2): body was'))).toBe(true);
    expect(lines.at(-1)).toBe('  Report: reports/latest/report.html');
  });

  test('pass, incomplete, and colour only when asked', () => {
    const passing = fixtureReport();
    // A skipped MUST check is not a pass (docs/decisions/001): the passing report is the fixture without it.
    passing.checks = passing.checks.filter(
      (c) => c.outcome !== 'fail' && !(c.level === 'MUST' && c.outcome === 'skip'),
    );
    expect(verdictLines(passing)[0]).toMatch(/^PASS /);
    expect(verdictLines({ ...passing, aborted: { code: 'RUN_TIMEOUT', message: 'slow' } })).toContain(
      '  Run stopped early (RUN_TIMEOUT): slow',
    );
    expect(verdictLines(passing, { colour: true })[0]).toMatch(/^\x1b\[32mPASS\x1b\[0m/);
  });

  test('a MUST check not judged makes the run INCOMPLETE: each named with its reason and fix', () => {
    const report = fixtureReport();
    report.checks = report.checks.filter((c) => c.outcome !== 'fail');
    report.checks.push(
      {
        id: 'create.valid',
        title: 't',
        level: 'MUST',
        specRef: '§4.2',
        outcome: 'skip',
        failures: [],
        skipReason: 'every pet refused',
        skipKind: 'unjudged',
        fix: 'pass --category-id N',
      },
      {
        id: 'a.one',
        title: 't',
        level: 'MUST',
        specRef: '§1',
        outcome: 'skip',
        failures: [],
        skipReason: 'budget',
        fix: 'raise --budget to 600',
      },
      {
        id: 'a.two',
        title: 't',
        level: 'MUST',
        specRef: '§1',
        outcome: 'skip',
        failures: [],
        skipReason: 'budget',
        fix: 'raise --budget to 600',
      },
      {
        id: 'ratelimit.retry-after',
        title: 't',
        level: 'MUST',
        specRef: '§8.3',
        outcome: 'skip',
        failures: [],
        skipReason: 'judged by `petcert quota`',
        skipKind: 'not-applicable',
      },
    );
    const lines = verdictLines(report);
    expect(lines[0]).toMatch(/^INCOMPLETE /);
    expect(lines).toContain('  4 MUST checks not judged (INCOMPLETE, exit 4):');
    expect(lines).toContain('  ? quota.day.exact[pro]: production target');
    expect(lines).toContain('  ? create.valid: every pet refused');
    expect(lines).toContain('      fix: pass --category-id N');
    expect(lines).toContain('  ? 2 checks: budget');
    expect(lines).toContain('      a.one, a.two');
    expect(lines).toContain('      fix: raise --budget to 600');
    // Not applicable: listed apart, briefly, and never counted as not judged.
    expect(lines).toContain('  Not applicable to this run (1, not counted against it):');
    expect(lines).toContain('  · judged by `petcert quota`:');
    expect(lines.join('\n')).not.toMatch(/\? ratelimit\.retry-after/);
    expect(verdictLines({ ...report, allowIncomplete: true })[0]).toMatch(
      /^INCOMPLETE, allowed by --allow-incomplete /,
    );
  });

  // A FAIL run exits 1 whatever else was not judged: its summary must not say "INCOMPLETE, exit 4".
  test('a failed MUST and unjudged MUSTs: the summary says FAIL (exit 1), then lists the unjudged', () => {
    const report = fixtureReport();
    report.checks.push({
      id: 'a.one',
      title: 't',
      level: 'MUST',
      specRef: '§1',
      outcome: 'skip',
      failures: [],
      skipReason: 'budget',
      fix: 'raise --budget to 600',
    });
    expect(exitCodeOf(report)).toBe(1);
    const lines = verdictLines(report);
    expect(lines[0]).toMatch(/^FAIL /);
    expect(lines).toContain('  FAIL (exit 1); also 2 MUST checks not judged:');
    expect(lines).toContain('  ? a.one: budget');
    expect(lines.join('\n')).not.toMatch(/INCOMPLETE|exit 4/);
  });

  test('every head of the unjudged list names the exit code the run ends with', () => {
    const report = fixtureReport();
    report.checks = report.checks.filter((c) => c.outcome !== 'fail');
    const cases: Array<[Report, string]> = [
      [report, '  1 MUST check not judged (INCOMPLETE, exit 4):'],
      [
        { ...report, allowIncomplete: true },
        '  1 MUST check not judged (INCOMPLETE, accepted by --allow-incomplete, exit 0):',
      ],
      [
        { ...report, aborted: { code: 'RUN_TIMEOUT', message: 'slow' } },
        '  Stopped before a verdict (exit 3); also 1 MUST check not judged:',
      ],
    ];
    for (const [r, head] of cases) {
      expect(unjudgedLines(r)[0]).toBe(head);
      expect(head).toContain(`exit ${exitCodeOf(r)}`);
    }
  });

  test('a check failing for several causes names each under its first message', () => {
    const report = fixtureReport();
    const failing = report.checks.find((c) => c.id === 'list.limit-max')!;
    failing.causes = [
      { cause: 'GET /v1/pets?limit → 200: N items', count: 12 },
      { cause: 'GET /v1/pets?limit → 400: no Error body', count: 1 },
    ];
    const lines = verdictLines(report);
    const at = lines.findIndex((l) => l.startsWith('  ✗ MUST list.limit-max'));
    expect(lines.slice(at + 1, at + 4)).toEqual([
      '      2 distinct causes (one example of each in the report):',
      '      · GET /v1/pets?limit → 200: N items ×12',
      '      · GET /v1/pets?limit → 400: no Error body ×1',
    ]);
  });

  test('a run whose only skips do not apply passes', () => {
    const report = fixtureReport();
    report.checks = report.checks
      .filter((c) => c.outcome !== 'fail')
      .map((c) => (c.outcome === 'skip' ? { ...c, skipKind: 'not-applicable' as const } : c));
    expect(verdictLines(report)[0]).toMatch(/^PASS /);
  });
});
