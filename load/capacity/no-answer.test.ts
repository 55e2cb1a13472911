import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { notMeasured } from './no-answer.ts';
import { resultLine, type RunnerResult, type RunnerStep } from './result.ts';
import { mergeCapacity } from './run.ts';

const step = (o: Partial<RunnerStep>): RunnerStep => ({
  index: 2,
  offeredRate: 10,
  share: 1,
  seconds: 2,
  requests: 20,
  failed: 0,
  dropped: 0,
  below429: 0,
  unexpected4xx: 0,
  percentilesMs: {},
  ...o,
});

describe('notMeasured', () => {
  test("every request unanswered: not a measurement, with k6's error text and the fix it points to", () => {
    const why = notMeasured(step({ failed: 20, noAnswer: 20, noAnswerErrors: { 'x509: unknown authority': 20 } }));
    expect(why).toMatch(/^step 3: 20 of 20 requests got no HTTP answer \(k6: "x509: unknown authority" × 20\)/);
    expect(why).toMatch(/--ca-file/);
  });

  test.for([
    ['proxyconnect tcp: dial tcp 127.0.0.1:1: connect: connection refused', /--proxy/],
    ['Forbidden', /proxy refused/],
    ['remote error: tls: certificate required', /--client-cert/],
    ['dial tcp: lookup staging.petcert.test on 10.0.0.1:53: no such host', /HTTPS_PROXY or --proxy/],
  ] as const)('a client-side cause stops the run even when some requests were answered: %s', ([text, fix]) => {
    expect(notMeasured(step({ failed: 3, noAnswer: 3, noAnswerErrors: { [text]: 3 } }))).toMatch(fix);
  });

  test('a service that times out or refuses under load is measured (its failures are its own)', () => {
    expect(
      notMeasured(
        step({ failed: 5, noAnswer: 5, noAnswerErrors: { 'request timeout': 4, 'read: connection reset by peer': 1 } }),
      ),
    ).toBeUndefined();
    expect(notMeasured(step({ failed: 20 }))).toBeUndefined(); // 5xx: answered
  });

  test('every request unanswered for a reason petcert does not know: still not a measurement', () => {
    expect(notMeasured(step({ failed: 20, noAnswer: 20, noAnswerErrors: { 'request timeout': 20 } }))).toMatch(
      /see k6's log/,
    );
  });
});

describe('petcert capacity merge of runners none of whose requests got an answer', () => {
  const run = {
    target: 'https://staging.example.com/v1',
    plannedRate: 100,
    slo: 'p99<500ms',
    minHeadroom: 1,
    scale: 1,
    topRate: 200,
    stepCount: 1,
    canaryStep: 0,
    canaries: 0,
    canariesRequested: false,
  };
  const unanswered = (segment: string, share: number): RunnerResult => ({
    tool: 'petcert-capacity',
    version: 1,
    run,
    segment,
    canaries: [],
    steps: [
      step({
        index: 0,
        share,
        requests: 50,
        failed: 50,
        noAnswer: 50,
        noAnswerErrors: { 'x509: unknown authority': 50 },
      }),
    ],
  });

  test("stops before a verdict (no check judged, none passed), with k6's error text added up over the runners", () => {
    const dir = mkdtempSync(join(tmpdir(), 'petcert-no-answer-'));
    const files = [unanswered('0:1/2', 0.5), unanswered('1/2:1', 0.5)].map((r, i) => {
      const file = join(dir, `runner-${i}.log`);
      writeFileSync(file, `${resultLine(r)}\n`);
      return file;
    });
    const { report } = mergeCapacity(files, 'test');
    expect(report.checks).toEqual([]);
    expect(report.aborted?.code).toBe('UNREACHABLE');
    expect(report.aborted?.message).toMatch(
      /100 of 100 requests got no HTTP answer \(k6: "x509: unknown authority" × 100\)/,
    );
  });
});
