// The quota run's Send, against a target that never answers (virtual time): the printed worst case
// counts the transport tries the stack really makes (the guard stops after 3 a request, not 5), and
// the run ends within it, exit 3's UNREACHABLE with the reason.
import { describe, expect, it } from 'vitest';
import { parsePlansFile } from '../spec/plans.ts';
import { deadTarget } from '../testkit/load/dead-target.ts';
import { createFakeClock } from '../testkit/load/fake-clock.ts';
import { FAKE_START_MS } from '../testkit/load/in-process.ts';
import { PROBE_TRIES, requestWorstMs } from './probes/send.ts';
import { quotaBoundOf, runQuota } from './quota.ts';

const plans = parsePlansFile({});
const keys = [{ plan: 'free', key: 'pc_free_aaaaaaaaaaaa' }];
const TIMEOUT_MS = 10_000;

/** A target whose every request times out: each try costs the whole timeout. */
function dead() {
  const clock = createFakeClock(FAKE_START_MS);
  return { clock, ...deadTarget(clock, TIMEOUT_MS) };
}

describe('a target that never answers', () => {
  it.for(['minute', 'burst', 'day'] as const)(
    '%s: one request costs the tries the bound counts, then UNREACHABLE',
    async (probe) => {
      const target = dead();
      const report = await runQuota({
        baseUrl: 'http://127.0.0.1:1/v1',
        keys,
        plans,
        only: [probe],
        send: target.send,
        clock: target.clock,
        timeoutMs: TIMEOUT_MS,
      });
      expect(report.aborted?.code).toBe('UNREACHABLE');
      expect(target.tries()).toBe(PROBE_TRIES);
      expect(target.clock.now() - FAKE_START_MS).toBe(requestWorstMs(TIMEOUT_MS));
      expect(report.requests).toBe(PROBE_TRIES);
      expect(target.clock.now() - FAKE_START_MS).toBeLessThanOrEqual(
        quotaBoundOf({ keys, plans, only: [probe], timeoutMs: TIMEOUT_MS }).totalMs,
      );
    },
  );
});
