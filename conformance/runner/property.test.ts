// A scenario run that sent its requests but decided nothing (UNDECIDED) is not a judged input: a check
// whose every run was undecided must not pass (suite.ts then records it unjudged, with the check's reason).
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { Exchange } from '../../core/exchange.ts';
import type { RunContext } from '../context.ts';
import { fail, UNDECIDED, type RunVerdict, type ScenarioCheck } from '../checks/types.ts';
import { runScenario } from './property.ts';

/** A check whose runs each send one request and answer the next of `verdicts`. */
function checkAnswering(verdicts: RunVerdict[]): ScenarioCheck {
  let i = 0;
  return {
    kind: 'scenario',
    id: 'test.check',
    title: 'a test check',
    level: 'MUST',
    specRef: '§0',
    weight: 1,
    cost: 1,
    arbitrary: () => fc.integer({ min: 0, max: 9 }),
    async run(_, ctx) {
      await ctx.send({ method: 'GET', url: 'http://127.0.0.1/v1/pets', headers: {} });
      return verdicts[i++ % verdicts.length];
    },
  };
}
const send = async (request: Exchange['request']): Promise<Exchange> => ({
  request,
  response: { status: 200, headers: {}, body: '[]' },
  sentAt: 0,
  durationMs: 1,
});
const ctx = { send } as RunContext;
const options = { seed: 1, numRuns: 5, share: 100 };

describe('runScenario and undecided runs', () => {
  test('every run undecided: nothing judged, every run counted undecided, no failure', async () => {
    const outcome = await runScenario(checkAnswering([UNDECIDED]), ctx, options);
    expect(outcome).toMatchObject({ runs: 5, judged: 0, undecided: 5, requests: 5 });
    expect(outcome.failure).toBeUndefined();
  });
  test('undecided runs beside held ones: only the held ones are judged', async () => {
    const outcome = await runScenario(checkAnswering([UNDECIDED, undefined]), ctx, options);
    expect(outcome).toMatchObject({ judged: 2, undecided: 3 });
  });
  test('a failing run still fails', async () => {
    const outcome = await runScenario(checkAnswering([UNDECIDED, fail('wrong')]), ctx, options);
    expect(outcome.failure?.finding.message).toBe('wrong');
  });
});

describe('runScenario: a second pass for checks that decide only away from some moment', () => {
  const slept: number[] = [];
  const sleeping = { send, sleep: async (ms: number) => void slept.push(ms) } as RunContext;
  test('every run undecided and a pause named: the runs once more after it, judged there', async () => {
    slept.length = 0;
    const check = checkAnswering([UNDECIDED, UNDECIDED, UNDECIDED, UNDECIDED, UNDECIDED, undefined]);
    const outcome = await runScenario({ ...check, undecidedAgainAfterMs: 4500 }, sleeping, options);
    expect(slept).toEqual([4500]);
    expect(outcome).toMatchObject({ runs: 10, judged: 1, undecided: 9, requests: 10 });
  });
  test('a failure in the second pass is the outcome', async () => {
    const check = checkAnswering([UNDECIDED, UNDECIDED, UNDECIDED, UNDECIDED, UNDECIDED, fail('stuck')]);
    const outcome = await runScenario({ ...check, undecidedAgainAfterMs: 1 }, sleeping, options);
    expect(outcome.failure?.finding.message).toBe('stuck');
  });
  test('no pause named, or a run judged: one pass only', async () => {
    slept.length = 0;
    expect(await runScenario(checkAnswering([UNDECIDED]), sleeping, options)).toMatchObject({ runs: 5 });
    const judgedOnce = { ...checkAnswering([undefined, UNDECIDED]), undecidedAgainAfterMs: 1 };
    expect(await runScenario(judgedOnce, sleeping, options)).toMatchObject({ runs: 5, judged: 3 });
    expect(slept).toEqual([]);
  });
  test('the second pass spends only what is left of the share', async () => {
    const check = { ...checkAnswering([UNDECIDED]), undecidedAgainAfterMs: 1 };
    const outcome = await runScenario(check, sleeping, { ...options, share: 7 });
    expect(outcome).toMatchObject({ requests: 7, judged: 0 });
  });
});
