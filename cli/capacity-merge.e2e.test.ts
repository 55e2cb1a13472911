// The capacity bundle under the real k6, run by hand: plain `k6 run` with defaults and no segment
// sends requests on every key; two runners on execution segments send each key what one process
// would; and two runners, merged by `petcert capacity merge`, reach the verdict one runner reaches at
// the same total rate.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { keysFileText } from '../load/capacity/keys-file.ts';
import { runK6Process } from '../load/k6-process.ts';
import { parseRunnerResults } from '../load/capacity/result.ts';
import type { Report } from '../report/model.ts';
import { keyPool } from '../reference/key-pool.ts';
import { listen } from '../reference/index.ts';
import type { Handle } from '../reference/types.ts';
import { parsePlansFile } from '../spec/plans.ts';
import { CAPACITY_PLANS, capacityBed, eachK6 } from '../testkit/capacity/k6.ts';
import { latencyProxy } from '../testkit/capacity/latency-proxy.ts';
import { unusedPort } from '../testkit/http/hostile.ts';
import { runCli } from '../testkit/cli/run-cli.ts';

const { dir, plansFile, script } = capacityBed('petcert-capacity-merge-');
/** The k6 of the version row running now (eachK6). */
let k6: () => string | undefined = () => undefined;
const PLANS = CAPACITY_PLANS;

/**
 * Starts runners the way the k6-operator does: each paused behind its REST API, then all resumed at
 * once, so that their steps line up (runners started one init apart would overlap neighbouring steps).
 */
async function resumeTogether(ports: number[]): Promise<void> {
  const status = (port: number, init?: RequestInit) =>
    fetch(`http://127.0.0.1:${port}/v1/status`, init)
      .then((r) => r.ok)
      .catch(() => false);
  const deadline = Date.now() + 60_000;
  for (const port of ports)
    while (!(await status(port))) {
      if (Date.now() > deadline) throw new Error(`k6 on port ${port} never became ready`);
      await new Promise((r) => setTimeout(r, 100));
    }
  const body = JSON.stringify({ data: { type: 'status', id: 'default', attributes: { paused: false } } });
  await Promise.all(
    ports.map((port) => status(port, { method: 'PATCH', headers: { 'content-type': 'application/json' }, body })),
  );
}

/** Two runners on the halves (one sequence, as the k6-operator passes), started paused and resumed together. */
async function twoRunners(env: Record<string, string>): Promise<Array<{ code: number | null; out: string }>> {
  const seq = ['--execution-segment-sequence', '0,1/2,1'];
  const first = await unusedPort();
  const ports = [first, await unusedPort([first])];
  const runners = ['0:1/2', '1/2:1'].map((segment, i) =>
    k6Run(env, ['--execution-segment', segment, ...seq, '--paused', '--address', `127.0.0.1:${ports[i]}`]),
  );
  await resumeTogether(ports);
  return Promise.all(runners);
}

/** Runs k6 until it exits or `stopWhen` says so (then SIGINT: k6 still prints its summary), bounded. */
async function k6Run(
  env: Record<string, string>,
  args: string[],
  stopWhen: () => boolean = () => false,
  limitMs = 60_000,
): Promise<{ code: number | null; out: string }> {
  const stop = new AbortController();
  const poll = setInterval(() => stopWhen() && stop.abort(), 100);
  try {
    const run = await runK6Process({
      k6: k6()!,
      args: ['run', '--quiet', '--log-format', 'raw', ...args, script()],
      env,
      timeoutMs: limitMs,
      signal: stop.signal,
    });
    return { code: run.code, out: `${run.stdout}${run.stderr}` };
  } finally {
    clearInterval(poll);
  }
}

async function poolServer(freeKeys: number, wrap?: (h: Handle) => Handle) {
  const keys = keyPool({ free: freeKeys });
  const server = await listen({ plans: parsePlansFile(PLANS), keys, ...(wrap ? { wrap } : {}) });
  const keysFile = join(dir, `keys-${server.port}.txt`);
  writeFileSync(keysFile, keysFileText(Object.entries(keys).map(([key, plan]) => ({ plan, key }))));
  return { server, keys, keysFile };
}

/** One 3 s step at 50 req/s over 5 free keys (the planned-rate step of two), no canary. */
const oneStep = (baseUrl: string, keysFile: string): Record<string, string> => ({
  BASE_URL: baseUrl,
  KEYS_FILE: keysFile,
  PLANS_FILE: plansFile,
  MIX: 'free=5',
  UTILISATION: '0.5',
  MAX_FACTOR: '1',
  STEPS: '2',
  STEP: '1',
  STEP_SECONDS: '3',
  CANARIES: '0',
});

eachK6('the capacity bundle', (row) => {
  beforeAll(() => void (k6 = row));
  it('plain `k6 run` with defaults and no segment sends requests on every key', { timeout: 60_000 }, async () => {
    const seen = new Set<string>();
    let requests = 0;
    const count =
      (h: Handle): Handle =>
      async (req) => {
        requests++;
        seen.add(req.headers.authorization ?? '');
        return h(req);
      };
    const { server, keys, keysFile } = await poolServer(4, count);
    try {
      const run = await k6Run(
        { BASE_URL: server.baseUrl, KEYS_FILE: keysFile, PLANS_FILE: plansFile },
        [],
        () => requests >= 40,
        30_000,
      );
      const [result] = parseRunnerResults(run.out, 'k6');
      expect(result, run.out).toBeDefined();
      expect(result!.segment).toBe('0:1');
      expect(result!.sequence).toBeNull();
      expect(result!.steps[0]!.requests).toBeGreaterThan(0);
      expect(result!.steps[0]!.below429).toBe(0);
      expect([...seen].sort()).toEqual(
        Object.keys(keys)
          .map((k) => `Bearer ${k}`)
          .sort(),
      );
    } finally {
      await server.close();
    }
  });

  it(
    'two runners on execution segments send every key what one process would: 5 keys, evenly',
    { timeout: 60_000 },
    async () => {
      // A runner picks keys by the test-wide iteration number: together the runners cover it once, so
      // each key's count is the total over 5 rounded up or down (one step: one count), give or take an
      // iteration a runner did not start. Keys owned by runner (3 and 2 of 5) gave 3 keys a third less
      // load than the other 2.
      const perKey = new Map<string, number>();
      // Every request creates a pet named for the VU and the iteration number (requests.ts newPetBody):
      // a number two runners both used would show twice.
      const iterations: string[] = [];
      const count =
        (h: Handle): Handle =>
        async (req) => {
          const key = req.headers.authorization ?? '';
          perKey.set(key, (perKey.get(key) ?? 0) + 1);
          iterations.push(/petcert-capacity-\d+-(\d+)/.exec(String(req.body))?.[1] ?? 'none');
          return h(req);
        };
      const { server, keys, keysFile } = await poolServer(5, count);
      try {
        const pair = await twoRunners({ ...oneStep(server.baseUrl, keysFile), OPS: 'create=1' });
        const results = pair.map((r) => parseRunnerResults(r.out, 'k6')[0]);
        const why = JSON.stringify([...perKey]);
        results.forEach((r, i) =>
          expect(
            r?.steps.reduce((n, s) => n + s.requests, 0),
            pair[i]!.out,
          ).toBeGreaterThan(0),
        );
        // What `merge` checks: the runners were given one sequence.
        expect(results.map((r) => r?.sequence)).toEqual(['0,1/2,1', '0,1/2,1']);
        expect([...perKey.keys()].sort()).toEqual(
          Object.keys(keys)
            .map((k) => `Bearer ${k}`)
            .sort(),
        );
        const counts = [...perKey.values()];
        const total = counts.reduce((a, b) => a + b, 0);
        console.log(`per-key requests over 2 runners: ${counts.join(', ')} (total ${total})`);
        expect(total, why).toBeGreaterThanOrEqual(100);
        expect(Math.max(...counts) - Math.min(...counts), why).toBeLessThanOrEqual(2);
        expect(
          iterations.filter((n) => n === 'none'),
          'creates without an iteration number',
        ).toEqual([]);
        expect(iterations.length - new Set(iterations).size, 'iteration numbers sent twice').toBe(0);
      } finally {
        await server.close();
      }
    },
  );

  it(
    'a runner given a segment and no sequence refuses to start (its iteration numbers would overlap)',
    { timeout: 60_000 },
    async () => {
      let requests = 0;
      const count =
        (h: Handle): Handle =>
        async (req) => (requests++, h(req));
      const { server, keysFile } = await poolServer(5, count);
      try {
        const run = await k6Run(oneStep(server.baseUrl, keysFile), ['--execution-segment', '1/3:2/3']);
        expect(run.code, run.out).toBe(108);
        expect(run.out).toContain('--execution-segment 1/3:2/3 without --execution-segment-sequence');
        expect(requests).toBe(0);
      } finally {
        await server.close();
      }
    },
  );

  it("two runners on execution segments, merged, give the single runner's verdict", { timeout: 150_000 }, async () => {
    const { server, keysFile } = await poolServer(12);
    // A proxy each: the proxy's 2 s arrival window would carry the single run's last, fastest step into the
    // pair's first one (a 12.5 req/s step judged slow: p95 303 ms), a difference of the test, not of merging.
    const knee = () => latencyProxy({ target: server.baseUrl, rate: 55, delayMs: 300 });
    const proxies = [await knee(), await knee()];
    const env = (proxy: { baseUrl: string }) => ({
      BASE_URL: proxy.baseUrl,
      KEYS_FILE: keysFile,
      PLANS_FILE: plansFile,
      MIX: 'free=5',
      UTILISATION: '0.5',
      MAX_FACTOR: '2',
      STEPS: '4',
      STEP_SECONDS: '2',
      CANARIES: '0',
    });
    try {
      const single = await k6Run(env(proxies[0]!), []);
      const pair = await twoRunners(env(proxies[1]!));
      writeFileSync(join(dir, 'single.log'), single.out);
      pair.forEach((r, i) => writeFileSync(join(dir, `runner-${i}.log`), r.out));
      const judge = async (files: string[]) => {
        const reportDir = mkdtempSync(join(dir, 'merged-'));
        const run = await runCli(['capacity', 'merge', ...files, '--report-dir', reportDir], { timeoutMs: 30_000 });
        return { run, report: JSON.parse(readFileSync(join(reportDir, 'latest', 'report.json'), 'utf8')) as Report };
      };
      const one = await judge([join(dir, 'single.log')]);
      const two = await judge([join(dir, 'runner-0.log'), join(dir, 'runner-1.log')]);
      const [a, b] = [one.report.capacity!, two.report.capacity!];
      const why = `${one.run.stdout}\n${two.run.stdout}`;
      console.log(
        `merge: single sustained ${a.sustainedRate} breaking ${a.breakingRate}; 2 runners sustained ${b.sustainedRate} breaking ${b.breakingRate}`,
      );
      expect(b.steps.map((s) => s.runners)).toEqual(a.steps.map(() => 2));
      expect(b.steps.map((s) => s.percentiles)).toEqual(a.steps.map(() => 'histogram'));
      expect(b.sustainedRate, why).toBe(a.sustainedRate);
      expect(b.breakingRate, why).toBe(a.breakingRate);
      expect(a.breakingRate, why).not.toBeNull();
      console.log(
        `achieved: single ${a.steps.map((s) => s.achievedRate)}; 2 runners ${b.steps.map((s) => s.achievedRate)}; dropped ${a.steps.map((s) => s.droppedIterations)} / ${b.steps.map((s) => s.droppedIterations)}`,
      );
      b.steps.forEach((s, i) =>
        expect(Math.abs(s.achievedRate - a.steps[i]!.achievedRate) / a.steps[i]!.achievedRate, why).toBeLessThan(0.1),
      );
      expect(two.run.code, why).toBe(one.run.code);
    } finally {
      await Promise.all(proxies.map((p) => p.close()));
      await server.close();
    }
  });
});
