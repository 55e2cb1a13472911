// Distributed semantics under the real k6 (every pinned version): N = 1, 2 and 3 k6 processes started
// as k6-operator starts a TestRun's runners — runner i of N with `--execution-segment i/N:(i+1)/N
// --execution-segment-sequence 0,1/N,…,1` — run key-split.js against one reference server. From what
// the server itself received (per key, and per runner by the x-petcert-segment header): every key is
// used by exactly one runner, the union is the whole key set, and the aggregate arrival rate is the
// planned one within 5 %.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parsePlansFile } from '../spec/plans.ts';
import { buildBundles } from '../testkit/k6/bundles.ts';
import { countingServer, type Received } from '../testkit/k6/counting-server.ts';
import { K6_UNDER_TEST, k6Output, runK6 } from '../testkit/k6/k6.ts';
import { keysForSegment, parseSegment } from './shared/segment.ts';

const dir = mkdtempSync(join(tmpdir(), 'petcert-k6-distributed-'));
let dist = '';
// 7 keys: no N of 2 or 3 divides them, so the split is uneven (4+3, 3+2+2).
const KEYS = Array.from({ length: 7 }, (_, j) => `pc_split_${j}_${'x'.repeat(12)}`);
const TABLE = {
  windows: { minuteSeconds: 60, daySeconds: 86_400 },
  plans: { free: { perMinute: 100_000, perDay: 10_000_000 } },
};
const RATE = 50; // requests per second, all runners together
const SECONDS = 4;

beforeAll(async () => {
  dist = await buildBundles();
  writeFileSync(join(dir, 'plans.json'), JSON.stringify(TABLE));
}, 60_000);

/** What k6-operator passes runner i of n. */
function operatorFlags(i: number, n: number): string[] {
  const sequence = Array.from({ length: n + 1 }, (_, j) => (j === 0 ? '0' : j === n ? '1' : `${j}/${n}`)).join(',');
  return ['--execution-segment', `${i}/${n}:${i + 1}/${n}`, '--execution-segment-sequence', sequence];
}

interface Runner {
  segment: string;
  keys: string[];
  requests: number;
  /** From the server's arrival times: (requests − 1) / (last − first). */
  rate: number;
}

function runnersSeen(received: Received[]): Runner[] {
  const bySegment = new Map<string, Received[]>();
  for (const r of received) bySegment.set(r.segment ?? '(none)', [...(bySegment.get(r.segment ?? '(none)') ?? []), r]);
  return [...bySegment].map(([segment, rs]) => {
    const span = (rs.at(-1)!.atMs - rs[0]!.atMs) / 1000;
    return {
      segment,
      keys: [...new Set(rs.map((r) => r.key!))].sort(),
      requests: rs.length,
      rate: span > 0 ? (rs.length - 1) / span : NaN,
    };
  });
}

describe.each(K6_UNDER_TEST)('$title', (k6) => {
  it.skipIf(k6.skip).for([1, 2, 3])(
    '%i runner(s): each key used by exactly one runner, all keys used, aggregate rate within 5 % of the plan',
    { timeout: 60_000 },
    async (n) => {
      const server = await countingServer({
        plans: parsePlansFile(TABLE),
        keys: Object.fromEntries(KEYS.map((k) => [k, 'free'])),
      });
      try {
        const env = {
          BASE_URL: server.baseUrl,
          KEYS: KEYS.map((k) => `free=${k}`).join(','),
          PLANS_FILE: join(dir, 'plans.json'),
          RATE: String(RATE),
          DURATION: `${SECONDS}s`,
        };
        const runs = await Promise.all(
          Array.from({ length: n }, (_, i) =>
            runK6(k6, [...operatorFlags(i, n), join(dist, 'key-split.js')], { env, timeoutMs: 45_000 }),
          ),
        );
        for (const run of runs) expect(run.code, k6Output(run)).toBe(0);
        const runners = runnersSeen(server.received);

        // One runner per segment, each with exactly the keys its segment owns.
        expect(runners.map((r) => parseSegment(r.segment)).sort((a, b) => a.from - b.from)).toEqual(
          Array.from({ length: n }, (_, i) => parseSegment(`${i}/${n}:${i + 1}/${n}`)),
        );
        for (const r of runners) expect(r.keys, r.segment).toEqual(keysForSegment(KEYS, r.segment).sort());
        // Exactly one runner per key; together, every key.
        const owners = new Map<string, string[]>();
        for (const r of runners) for (const k of r.keys) owners.set(k, [...(owners.get(k) ?? []), r.segment]);
        expect([...owners.keys()].sort()).toEqual([...KEYS].sort());
        for (const [key, segments] of owners) expect(segments, key).toHaveLength(1);

        // The plan: RATE × SECONDS arrivals in all. Each runner paced its share (k6 divides the rate by segment).
        const total = server.received.length;
        const aggregate = runners.reduce((sum, r) => sum + r.rate, 0);
        console.log(
          `k6 ${k6.version}, ${n} runner(s), planned ${RATE}/s × ${SECONDS} s = ${RATE * SECONDS}: received ${total} (${(total / SECONDS).toFixed(1)}/s), ` +
            `sum of per-runner rates ${aggregate.toFixed(1)}/s — ${runners.map((r) => `${r.segment}: ${r.keys.length} keys, ${r.requests} requests, ${r.rate.toFixed(1)}/s`).join('; ')}`,
        );
        expect(Math.abs(total / SECONDS - RATE) / RATE).toBeLessThanOrEqual(0.05);
        expect(Math.abs(aggregate - RATE) / RATE).toBeLessThanOrEqual(0.05);
        for (const r of runners)
          expect(Math.abs(r.requests - (RATE * SECONDS) / n) / ((RATE * SECONDS) / n), r.segment).toBeLessThanOrEqual(
            0.05,
          );
        expect(server.received.every((r) => r.status === 200)).toBe(true);
      } finally {
        await server.close();
      }
    },
  );
});
