// A scenario check whose every run decided nothing is unjudged in the ledger, never a pass (docs/decisions/001):
// through the whole suite, not only runScenario's counters. Every answer of a correct server is given a
// Reset of its own, so no two of ratelimit.countdown's answers share a window and none of its runs decides.
import { afterAll, describe, expect, test } from 'vitest';
import type { Send } from '../core/exchange.ts';
import { createNodeTransport } from '../http/undici-send.ts';
import { BIG_PLANS, faultServer } from '../testkit/conformance/faults.ts';
import { runConform } from './run.ts';

const KEY = 'petcert-e2e-key-undecided-0123';
const server = faultServer(KEY);
const transport = createNodeTransport({ timeoutMs: 5000 });
afterAll(() => transport.close());

let answered = 0;
/** The reference's answers, each with a Reset one second later than the one before. */
const newResetEach: Send = async (request) => {
  const ex = await transport.send(request);
  const reset = ex.response.headers['x-ratelimit-reset'];
  if (reset === undefined) return ex;
  const headers = { ...ex.response.headers, 'x-ratelimit-reset': String(Number(reset) + ++answered) };
  return { ...ex, response: { ...ex.response, headers } };
};

describe('a check none of whose runs decided', () => {
  test('ratelimit.countdown is unjudged with its own reason and fix, and the run is not a PASS', async () => {
    const report = await runConform({
      baseUrl: server.baseUrl(),
      apiKey: KEY,
      send: newResetEach,
      budget: 500,
      maxRuns: 20,
      seed: 1,
      plan: 'big',
      plans: BIG_PLANS,
    });
    const countdown = report.checks.find((c) => c.id === 'ratelimit.countdown')!;
    expect(countdown).toMatchObject({ outcome: 'skip', skipKind: 'unjudged' });
    expect(countdown.skipReason).toMatch(/^\d+ run\(s\), none decided: no two answers in one window could be compared/);
    expect(countdown.fix).toMatch(/petcert quota/);
    expect(report.verdict).not.toBe('pass');
  });
});
