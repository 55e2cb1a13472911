import { describe, expect, test } from 'vitest';
import { fixtureReport } from '../testkit/report/fixtures.ts';
import { EXIT, exitCodeOf, settled, unjudgedMust, verdictOf, type CheckResult, type Report } from './model.ts';

const must = (outcome: CheckResult['outcome'], extra: Partial<CheckResult> = {}): CheckResult => ({
  id: `m.${outcome}`,
  title: 't',
  level: 'MUST',
  specRef: '§1',
  outcome,
  failures: [],
  ...extra,
});

describe('verdict and exit code', () => {
  const base = fixtureReport({ checks: [must('pass')] });
  const unjudged = must('skip', { skipReason: 'budget' });
  const notApplicable = must('skip', { id: 'm.na', skipReason: "quota's", skipKind: 'not-applicable' });

  test('every MUST check judged and none failed: PASS, 0; a not-applicable one does not count', () => {
    expect(verdictOf(base)).toBe('pass');
    expect(exitCodeOf({ ...base, checks: [must('pass'), notApplicable] })).toBe(EXIT.pass);
  });

  test('a MUST check not judged (kind unjudged or absent): INCOMPLETE, 4; 0 only when allowed', () => {
    const report = { ...base, checks: [must('pass'), unjudged] };
    expect(verdictOf(report)).toBe('incomplete');
    expect(exitCodeOf(report)).toBe(4);
    expect(exitCodeOf({ ...report, checks: [must('pass'), { ...unjudged, skipKind: 'unjudged' }] })).toBe(4);
    expect(exitCodeOf(settled(report, 'must', true))).toBe(0);
    expect(settled(report, 'must', true)).toMatchObject({ verdict: 'incomplete', allowIncomplete: true });
    expect(unjudgedMust(report).map((c) => c.id)).toEqual(['m.skip']);
  });

  test('a SHOULD or OBSERVE check not judged does not make a run incomplete', () => {
    expect(
      exitCodeOf({
        ...base,
        checks: [must('pass'), { ...unjudged, level: 'SHOULD' }, { ...unjudged, level: 'OBSERVE' }],
      }),
    ).toBe(0);
  });

  test('a failure wins over everything; a run stopped early is 3 even when allowed', () => {
    expect(
      exitCodeOf({ ...base, checks: [must('fail'), unjudged], aborted: { code: 'RUN_TIMEOUT', message: 'x' } }),
    ).toBe(1);
    const stopped = { ...base, checks: [unjudged], aborted: { code: 'UNREACHABLE' as const, message: 'x' } };
    expect(exitCodeOf(stopped)).toBe(3);
    expect(exitCodeOf(settled(stopped, 'must', true))).toBe(3);
    expect(settled(stopped, 'must', true).allowIncomplete).toBeUndefined();
  });

  test('settled records the verdict at the fail-on level, and only an allowed INCOMPLETE says allowIncomplete', () => {
    const should = { ...base, checks: [must('pass'), { ...must('fail'), level: 'SHOULD' as const }] };
    expect(settled(should, 'must').verdict).toBe('pass');
    expect(settled(should, 'should').verdict).toBe('fail');
    expect(settled(base, 'must', true).allowIncomplete).toBeUndefined();
  });
});

describe('Report: one shape per kind', () => {
  test("a kind carries its own fields; another kind's field does not compile; readers may ask any report", () => {
    const base = {
      tool: 'petcert' as const,
      version: '1',
      target: 't',
      startedAt: 's',
      finishedAt: 'f',
      seed: null,
      requests: 0,
      checks: [],
    };
    const quota: Report = { ...base, kind: 'quota', series: { 'minute:free': [] } };
    const conform: Report = { ...base, kind: 'conform', createdIds: [1] };
    // @ts-expect-error a quota run creates no pets
    const wrong: Report = { ...base, kind: 'quota', createdIds: [1] };
    // @ts-expect-error a conform report carries no capacity verdict
    const wrong2: Report = { ...base, kind: 'conform', capacity: { summary: 'x' } };
    expect([quota.series, quota.createdIds, conform.createdIds, conform.series, wrong.kind, wrong2.kind]).toEqual([
      { 'minute:free': [] },
      undefined,
      [1],
      undefined,
      'quota',
      'conform',
    ]);
  });
});
