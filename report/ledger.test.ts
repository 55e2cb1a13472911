import { expect, test } from 'vitest';
import type { RunContext } from '../conformance/context.ts';
import { defineCheck, verdict, type Rule } from './check.ts';
import { createLedger, FAILURE_POLICY, judgeRule, resultOf } from './ledger.ts';

const must = defineCheck('t.must', 'MUST', '§1', 'a rule');
const seen = defineCheck('t.seen', 'OBSERVE', '§2 (not shown)', 'a gap');
const exchange = (body: string) => ({
  request: { method: 'GET', url: 'http://127.0.0.1/v1/pets?k=SECRET', headers: { authorization: 'Bearer SECRET' } },
  response: { status: 500, headers: {}, body },
  sentAt: 0,
  durationMs: 1,
});

test('one cap and one clip for every engine: findings deduplicated by message, bodies clipped, secrets scrubbed', () => {
  const ledger = createLedger();
  for (let i = 0; i < 20; i++)
    ledger.fail(must, { message: `broke ${i % 7}`, exchange: exchange(`SECRET ${'x'.repeat(5000)}`) });
  const [[check, entry]] = ledger.entries() as [[typeof must, ReturnType<typeof ledger.entry>]];
  const result = resultOf(check, entry, { secrets: ['SECRET'], label: 'free' });
  expect(result.failures).toHaveLength(FAILURE_POLICY.maxPerCheck);
  expect(new Set(result.failures.map((f) => f.message)).size).toBe(FAILURE_POLICY.maxPerCheck);
  expect(result.failures[0]!.response!.body.length).toBeLessThanOrEqual(FAILURE_POLICY.maxBodyChars);
  expect(JSON.stringify(result)).not.toContain('SECRET');
  expect([result.id, result.title, result.outcome]).toEqual(['t.must[free]', 'a rule (free)', 'fail']);
});

// A second cause behind many findings of the first (400s from a body parser, after the
// 200s) is shown in the same run, not after the team fixed the first.
test('failures are kept by cause: one example of every cause before a second of any, within the cap', () => {
  const ledger = createLedger();
  const on = (method: string, url: string, status: number) => ({
    ...exchange('x'),
    request: { method, url, headers: {} },
    response: { status, headers: {}, body: 'x' },
  });
  for (let i = 0; i < 40; i++)
    ledger.fail(must, {
      message: `Remaining went from ${300 - i} to ${300 - i}`,
      exchange: on('GET', `http://h/v1/pets/${i}`, 200),
    });
  ledger.fail(must, { message: 'Remaining missing on a 400', exchange: on('POST', 'http://h/v1/pets', 400) });
  for (let i = 0; i < 10; i++)
    ledger.fail(must, { message: `Remaining ${i} on a 404`, exchange: on('GET', `http://h/v1/pets/${i}`, 404) });
  ledger.fail(must, { message: 'explicit', cause: 'the day window' });
  const result = resultOf(must, ledger.entry(must), { secrets: [] });
  expect(result.failures).toHaveLength(FAILURE_POLICY.maxPerCheck);
  const messages = result.failures.map((f) => f.message);
  expect(messages).toContain('Remaining missing on a 400');
  expect(messages).toContain('Remaining 0 on a 404');
  expect(messages).toContain('explicit');
  expect(messages.filter((m) => m.startsWith('Remaining went from'))).toHaveLength(2); // the first cause keeps what is left
  expect(result.causes).toEqual([
    { cause: 'GET /v1/pets/{petId} → 200: Remaining went from N to N', count: 40 },
    { cause: 'POST /v1/pets → 400: Remaining missing on a N', count: 1 },
    { cause: 'GET /v1/pets/{petId} → 404: Remaining N on a N', count: 10 },
    { cause: 'the day window', count: 1 },
  ]);
  // More causes than the cap: the first five causes, one example each.
  const many = createLedger();
  for (let c = 0; c < 8; c++) for (let i = 0; i < 3; i++) many.fail(must, { message: `fault ${'abcdefgh'[c]} #${i}` });
  expect(
    resultOf(must, many.entry(must), { secrets: [] })
      .failures.map((f) => f.message)
      .sort(),
  ).toEqual(['fault a #0', 'fault b #0', 'fault c #0', 'fault d #0', 'fault e #0']);
});

test('a reached check is never reported skipped; an unreached one keeps the first reason', () => {
  const ledger = createLedger();
  ledger.skip(must, 'first reason');
  ledger.skip(must, 'second reason');
  expect(resultOf(must, ledger.entry(must), { secrets: [] })).toMatchObject({
    outcome: 'skip',
    skipReason: 'first reason',
  });
  ledger.pass(must);
  ledger.skip(must, 'too late');
  expect(resultOf(must, ledger.entry(must), { secrets: [] })).toMatchObject({ outcome: 'pass' });
  ledger.count(seen, 'refused (400)');
  ledger.count(seen, 'refused (400)');
  ledger.skip(seen, 'nothing seen');
  expect(resultOf(seen, ledger.entry(seen), { secrets: [] })).toMatchObject({
    outcome: 'pass',
    observed: { seen: { 'refused (400)': 2 } },
  });
});

test('a skip is "could not judge" unless it says the rule does not apply; the fix travels with it', () => {
  const ledger = createLedger();
  const other = defineCheck('t.other', 'MUST', '§8.3', 'another rule');
  ledger.skip(must, 'the budget leaves no run', { fix: 'raise --budget to 212' });
  ledger.skip(other, 'a fixed-window rule, and this limiter is a token bucket', { kind: 'not-applicable' });
  expect(resultOf(must, ledger.entry(must), { secrets: [] })).toMatchObject({
    outcome: 'skip',
    skipKind: 'unjudged',
    fix: 'raise --budget to 212',
  });
  const na = resultOf(other, ledger.entry(other), { secrets: [] });
  expect(na).toMatchObject({ outcome: 'skip', skipKind: 'not-applicable' });
  expect(na).not.toHaveProperty('fix');
  ledger.fail(must, { message: 'broke' });
  const judged = resultOf(must, ledger.entry(must), { secrets: [] });
  expect(judged.outcome).toBe('fail');
  expect(judged).not.toHaveProperty('skipKind');
  expect(judged).not.toHaveProperty('fix');
});

test('OBSERVE tallies are fed by the check itself: a string id does not compile', () => {
  const tallied: string[] = [];
  const ctx = { observe: (check, label) => void tallied.push(`${check.id}: ${label}`) } as Pick<RunContext, 'observe'>;
  ctx.observe(seen, 'accepted');
  // @ts-expect-error a string id is no handle (a typo would otherwise be dropped silently)
  ctx.observe('t.seen', 'accepted');
  expect(tallied[0]).toBe('t.seen: accepted');
});

// One check model (docs/decisions/008): a guard and a pure judge over a typed observation; every kind of
// Verdict reaches the report as the ledger's outcome, "could not judge" as an unjudged skip.
test('judgeRule: the guard speaks first, and each kind of verdict becomes its outcome', () => {
  const rule: Rule<{ seen: number }> = {
    check: must,
    applies: (o) =>
      o.seen < 0
        ? verdict.notApplicable('another model')
        : o.seen === 0
          ? verdict.unjudged('nothing seen', 'send more')
          : undefined,
    judge: (o) => (o.seen > 2 ? verdict.fail({ message: `saw ${o.seen}` }) : verdict.pass),
  };
  const outcome = (seen: number) => {
    const ledger = createLedger();
    judgeRule(ledger, rule, { seen });
    return resultOf(must, ledger.entry(must), { secrets: [] });
  };
  expect(outcome(1).outcome).toBe('pass');
  expect(outcome(3)).toMatchObject({ outcome: 'fail', failures: [{ message: 'saw 3' }] });
  expect(outcome(0)).toMatchObject({ outcome: 'skip', skipKind: 'unjudged', fix: 'send more' });
  expect(outcome(-1)).toMatchObject({ outcome: 'skip', skipKind: 'not-applicable' });
  const observed = createLedger();
  judgeRule(observed, { check: seen, judge: () => verdict.observed({ model: 'fixed' }) }, null);
  expect(resultOf(seen, observed.entry(seen), { secrets: [] })).toMatchObject({ observed: { model: 'fixed' } });
});

test("judgeRule: a rule's facts are kept beside its verdict, a skip's reason included", () => {
  const rule: Rule<{ rate: number }> = {
    check: must,
    applies: (o) => (o.rate === 0 ? verdict.unjudged('generator-bound', 'more runners') : undefined),
    judge: () => verdict.pass,
    facts: (o) => ({ rate: o.rate }),
  };
  const result = (rate: number) => {
    const ledger = createLedger();
    judgeRule(ledger, rule, { rate });
    return resultOf(must, ledger.entry(must), { secrets: [] });
  };
  expect(result(5)).toMatchObject({ outcome: 'pass', observed: { rate: 5 } });
  expect(result(0)).toMatchObject({
    outcome: 'skip',
    skipReason: 'generator-bound',
    fix: 'more runners',
    observed: { rate: 0 },
  });
});
