// Hand-made reports for the renderers' tests: every level and outcome, a hostile server's bytes in
// every field a server can influence, and quota series shaped like the probes' (minute and day).
import type { CheckResult, EngineFields, Report, ReportBase, Sample } from '../../report/model.ts';

export const HOSTILE = `<script>window.__pwned=1</script><img src=x onerror="window.__pwned=2">"'&`;

/** A minute window of `limit`, overrun by `extra` requests, then a fresh window after Retry-After. */
export function minuteSeries(limit = 60, extra = 10, t0 = 1_700_000_000_000, windowMs = 2000): Sample[] {
  const samples: Sample[] = [];
  const reset1 = Math.ceil((t0 + windowMs) / 1000);
  for (let i = 0; i < limit + extra; i += 1) {
    const t = t0 + i * 10;
    const admitted = i < limit;
    samples.push({
      t,
      status: admitted ? 200 : 429,
      limit,
      remaining: admitted ? limit - 1 - i : 0,
      reset: reset1,
      ...(admitted ? {} : { retryAfter: 1 }),
    });
  }
  for (let i = 0; i < 5; i += 1)
    samples.push({
      t: t0 + windowMs + 100 + i * 10,
      status: 200,
      limit,
      remaining: limit - 1 - i,
      reset: reset1 + windowMs / 1000,
    });
  return samples;
}

/** `days` worth of minute windows until the day quota is spent, then 429s until the day resets. */
export function daySeries(perMinute = 10, perDay = 50, t0 = 1_700_000_000_000): Sample[] {
  const samples: Sample[] = [];
  let used = 0;
  for (let w = 0; used < perDay + 3; w += 1) {
    for (let i = 0; i < perMinute && used < perDay + 3; i += 1) {
      const t = t0 + w * 1000 + i * 20;
      const ok = used < perDay;
      used += 1;
      samples.push({
        t,
        status: ok ? 200 : 429,
        limit: perMinute,
        remaining: ok ? perMinute - 1 - i : 0,
        reset: Math.ceil(t0 / 1000) + w + 1,
        ...(ok ? {} : { retryAfter: 30 }),
      });
    }
  }
  return samples;
}

function check(
  id: string,
  level: CheckResult['level'],
  outcome: CheckResult['outcome'],
  extra: Partial<CheckResult> = {},
): CheckResult {
  return { id, title: `title of ${id}`, level, specRef: '§8.2', outcome, failures: [], ...extra };
}

export function hostileFailure(): CheckResult['failures'][number] {
  return {
    message: `body was ${HOSTILE}`,
    request: {
      method: 'GET',
      url: `http://127.0.0.1:1/v1/pets?x=${HOSTILE}`,
      headers: { authorization: 'Bearer ***' },
    },
    response: {
      status: 500,
      headers: { 'content-type': 'text/html', [`x-evil`]: HOSTILE },
      body: `<html><body>${HOSTILE}</body></html>`,
    },
    repro: `curl -i -X GET -H 'authorization: Bearer $API_KEY' 'http://127.0.0.1:1/v1/pets'`,
    expected: { status: 200 },
    received: { status: 500, body: HOSTILE },
  };
}

/** Any field of any kind: tests compose a report of every kind from this one. */
export type FixtureOverrides = Partial<ReportBase> & { [F in keyof EngineFields]?: EngineFields[F] | undefined } & {
  kind?: Report['kind'];
};

/**
 * A certify report (the kind that carries series, created pets and plans), overridden field by field.
 * The cast: a test may build a kind with another kind's field on purpose (a hand-edited report.json).
 */
export function fixtureReport(overrides: FixtureOverrides = {}): Report {
  return {
    tool: 'petcert',
    version: '0.1.0',
    kind: 'certify',
    target: 'http://127.0.0.1:1/v1',
    startedAt: '2026-11-22T10:00:00.000Z',
    finishedAt: '2026-11-22T10:01:30.000Z',
    seed: 42,
    requests: 123,
    checks: [
      check('auth.missing-key', 'MUST', 'pass'),
      check('list.limit-max', 'MUST', 'fail', { failures: [hostileFailure()] }),
      check('headers.cache', 'SHOULD', 'fail', { failures: [{ ...hostileFailure(), message: 'no Cache-Control' }] }),
      check('gap.default-status', 'OBSERVE', 'pass', { observed: { defaultStatus: HOSTILE } }),
      check('quota.day.exact[pro]', 'MUST', 'skip', { skipReason: 'production target' }),
      check('quota.day.exact[free]', 'MUST', 'pass'),
      check(`evil.${HOSTILE}`, 'MUST', 'pass', { title: HOSTILE, specRef: HOSTILE }),
    ],
    series: { 'minute:free': minuteSeries(), 'day:free': daySeries(), [`evil${HOSTILE}`]: minuteSeries(5, 2) },
    createdIds: [1, 2, 3],
    plans: {
      windows: { minuteSeconds: 1, daySeconds: 10 },
      plans: { free: { perMinute: 10, perDay: 50 }, enterprise: { perMinute: null, perDay: null } },
    },
    ...overrides,
  } as Report;
}
