// Every wait ends: against rate-limit liars on the specification's real windows (60 s / 1 day,
// virtual time), each run ends within its bound and reports the lie; --max-wait and the run's deadline
// cut probes short with the reason, never silently.
import { describe, expect, it } from 'vitest';
import { silentProgress } from '../../core/progress.ts';
import { parsePlansFile, resolvePlan } from '../../spec/plans.ts';
import { RATE_LIMIT_LIES, type LieName } from '../../testkit/http/hostile.ts';
import { inProcessTarget, type ResponseEdit } from '../../testkit/load/in-process.ts';
import { quotaBound, waitCapMs, windowsCapMs } from './bounds.ts';
import { formatBound } from '../../core/duration.ts';
import { PROBE_NAMES } from './checks.ts';
import { createContext } from './context.ts';
import { runProbes } from './run.ts';

const table = parsePlansFile({});
const keys = { pc_free_aaaaaaaaaaaa: 'free' };
const TIMEOUT_MS = 30_000;
const bound = quotaBound({
  windows: table.windows,
  plans: [resolvePlan(table, 'free')],
  only: PROBE_NAMES,
  timeoutMs: TIMEOUT_MS,
});

async function run(options: { edit?: ResponseEdit; maxWaitMs?: number; deadlineMs?: number } = {}) {
  const target = inProcessTarget({ plans: table, keys, ...(options.edit ? { edit: options.edit } : {}) });
  const start = target.clock.now();
  const ctx = createContext({
    send: target.send,
    clock: target.clock,
    baseUrl: target.baseUrl,
    windows: table.windows,
    progress: silentProgress,
    deadline: start + (options.deadlineMs ?? bound.totalMs - TIMEOUT_MS),
    ...(options.maxWaitMs !== undefined ? { maxWaitMs: options.maxWaitMs } : {}),
  });
  const r = await runProbes(
    ctx,
    [{ key: 'pc_free_aaaaaaaaaaaa', plan: resolvePlan(table, 'free') }],
    PROBE_NAMES,
    Object.keys(keys),
  );
  const by = (outcome: string) => r.checks.filter((c) => c.outcome === outcome);
  return {
    elapsedMs: target.clock.now() - start,
    failed: by('fail').map((c) => c.id),
    skipped: Object.fromEntries(by('skip').map((c) => [c.id, c.skipReason ?? ''])),
  };
}

const correct = await run();

describe('the bound', () => {
  it('is what the formula says, and a correct server passes well within it', () => {
    expect(correct.failed).toEqual([]);
    expect(correct.elapsedMs).toBeLessThan(bound.totalMs / 2);
    // 7d00h since the minute and burst probes each declare one day wait (a key whose day ran out during
    // them: day-out.ts); was 5d00h.
    expect(formatBound(bound.totalMs)).toBe('7d00h');
  });

  it('caps each wait at the longest window plus slack, or --max-wait when lower', () => {
    expect(windowsCapMs(table.windows)).toBe(86_400_000 + 1500);
    expect(waitCapMs(table.windows, 30_000)).toBe(30_000);
    expect(waitCapMs(table.windows, 10 * 86_400_000)).toBe(windowsCapMs(table.windows));
  });
});

describe('rate-limit liars: each run ends within its bound and reports the lie', () => {
  // What fails, and what is left unjudged because the key is held: nothing goes to it before a 429's
  // Retry-After (core/hold-429.ts), so a lie that keeps refusing ends the probes that need more answers.
  const expected: Record<LieName, { failed: string[]; heldBack?: string[] }> = {
    'huge Retry-After': { failed: ['quota.retry-after.accurate[free]', 'quota.day.retry-after[free]'] },
    'Reset in the past': { failed: ['quota.headers.reset[free]'] },
    'Reset that never arrives': {
      failed: ['quota.recovery[free]'],
      heldBack: ['quota.burst.exact[free]', 'quota.day.exact[free]'],
    },
    'Retry-After as a far-future HTTP-date': {
      failed: ['quota.retry-after.accurate[free]'],
      heldBack: ['quota.recovery[free]', 'quota.day.exact[free]'],
    },
  };
  // Hour-long Retry-Afters are obeyed (each 429 the probes meet holds the key an hour); the others cost a few minute windows.
  const extraMs: Partial<Record<LieName, number>> = { 'huge Retry-After': 6 * 3_600_000 };
  it.for(Object.keys(expected) as LieName[])('%s', async (name) => {
    const r = await run({ edit: RATE_LIMIT_LIES[name]() });
    expect(r.failed).toEqual(expect.arrayContaining(expected[name].failed));
    for (const id of expected[name].heldBack ?? [])
      expect(r.skipped[id]).toMatch(
        /probe cut short: (stopped: the key was answered 429|not waited: the key's last 429 asks)/,
      );
    expect(r.elapsedMs).toBeLessThanOrEqual(bound.totalMs);
    expect(r.elapsedMs).toBeLessThan(correct.elapsedMs + (extraMs[name] ?? 15 * 60_000));
  });
});

describe('cutting probes short', () => {
  it('--max-wait below a minute window: the probes that must wait for one are skipped, saying so', async () => {
    const r = await run({ maxWaitMs: 5_000 });
    expect(r.failed).toEqual([]);
    expect(r.skipped['quota.recovery[free]']).toMatch(
      /probe cut short: not waited: .* beyond the 5s any wait may take/,
    );
    expect(r.elapsedMs).toBeLessThan(60_000);
  });

  it('the run deadline: past it nothing is sent or waited, and the open checks say why', async () => {
    const r = await run({ deadlineMs: 90_000 });
    expect(r.elapsedMs).toBeLessThanOrEqual(90_000);
    expect(Object.values(r.skipped).join('\n')).toMatch(/worst-case bound/);
  });
});
