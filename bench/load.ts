// `npx tsx bench/load.ts` (also run by `npm run bench`): wall time and requests per quota probe against
// the physical minimum, as ratios, and npm start's wall against its floor (at the end). Two runs: the real windows (60 s / 86,400 s, §8.1 Free) on a fake
// clock — virtual time, so a day costs nothing — and compressed windows over real sockets.
import { silentProgress } from '../core/progress.ts';
import { listen } from '../reference/index.ts';
import { parsePlansFile, resolvePlan, type PlanTable } from '../spec/plans.ts';
import { burstSize } from '../load/probes/burst/burst.ts';
import type { ProbeName } from '../load/probes/checks.ts';
import { createContext } from '../load/probes/context.ts';
import { runProbes } from '../load/probes/run.ts';
import { runQuota } from '../load/quota.ts';
import { inProcessTarget } from '../testkit/load/in-process.ts';
import { certify, type Runners } from '../cli/certify.ts';
import { realRunners } from '../cli/certify-runners.ts';
import { embeddedPlans, startEmbedded } from '../cli/embedded.ts';

interface Row {
  probe: ProbeName;
  wallMs: number;
  requests: number;
  failed: number;
}

/** The least any probe can cost. Minute: the count, its 429 and one recovery request, within about one window
 * (the wait for a fresh one is up to another). Day: ceil(perDay/perMinute) windows and perDay + 1 requests. */
function minimum(probe: ProbeName, table: PlanTable, plan: string): { wallMs: number; requests: number } {
  const p = resolvePlan(table, plan);
  const w = table.windows.minuteSeconds * 1000;
  if (probe === 'minute') return { wallMs: w, requests: p.perMinute + 2 };
  if (probe === 'burst') return { wallMs: w, requests: burstSize(p.perMinute) };
  if (probe === 'isolation') return { wallMs: w, requests: p.perMinute + 2 };
  return { wallMs: Math.ceil(p.perDay / p.perMinute) * w, requests: p.perDay + 1 };
}

function print(title: string, rows: Row[], table: PlanTable, plan: string): void {
  console.log(`\n${title}`);
  console.log('probe      wall        min wall    ratio   requests  min  ratio  failed');
  for (const r of rows) {
    const m = minimum(r.probe, table, plan);
    const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`.padEnd(11);
    console.log(
      `${r.probe.padEnd(10)} ${s(r.wallMs)} ${s(m.wallMs)} ${(r.wallMs / m.wallMs).toFixed(2).padEnd(7)} ` +
        `${String(r.requests).padEnd(9)} ${String(m.requests).padEnd(4)} ${(r.requests / m.requests).toFixed(2).padEnd(6)} ${r.failed}`,
    );
  }
}

async function virtualRun(probe: ProbeName, table: PlanTable, keys: Record<string, string>): Promise<Row> {
  const t = inProcessTarget({ plans: table, keys });
  const ctx = createContext({
    send: t.send,
    clock: t.clock,
    baseUrl: t.baseUrl,
    windows: table.windows,
    progress: silentProgress,
  });
  const list = Object.entries(keys).map(([key, plan]) => ({ key, plan: resolvePlan(table, plan) }));
  const start = t.clock.now();
  const r = await runProbes(ctx, list, [probe], Object.keys(keys));
  return {
    probe,
    wallMs: t.clock.now() - start,
    requests: t.count(),
    failed: r.checks.filter((c) => c.outcome === 'fail').length,
  };
}

async function socketRun(probe: ProbeName, table: PlanTable, keys: Record<string, string>): Promise<Row> {
  const server = await listen({ plans: table, keys });
  const start = Date.now();
  try {
    const r = await runQuota({
      baseUrl: server.baseUrl,
      keys: Object.entries(keys).map(([key, plan]) => ({ key, plan })),
      plans: table,
      only: [probe],
    });
    return {
      probe,
      wallMs: Date.now() - start,
      requests: r.requests,
      failed: r.checks.filter((c) => c.outcome === 'fail').length,
    };
  } finally {
    await server.close();
  }
}

const probes: ProbeName[] = ['minute', 'burst', 'day'];
const real = parsePlansFile({});
const realRows: Row[] = [];
for (const p of probes) realRows.push(await virtualRun(p, real, { pc_free_bench_aaaaaaaa: 'free' }));
print(
  'Real windows (60 s / 86,400 s), plan free 60/min 1,000/day, fake clock (virtual wall time):',
  realRows,
  real,
  'free',
);

const compressed = parsePlansFile({
  windows: { minuteSeconds: 2, daySeconds: 12 },
  plans: { free: { perMinute: 5, perDay: 20 } },
});
const socketRows = await Promise.all(probes.map((p) => socketRun(p, compressed, { pc_free_bench_bbbbbbbb: 'free' })));
print('Compressed windows (2 s / 12 s), plan 5/min 20/day, real sockets:', socketRows, compressed, 'free');
console.log('\nDay wall time includes finding the day boundary (up to one day window spent at the minute pace when');
console.log('the headers do not report the day quota) and waiting for it; the count itself is the minimum.');

// npm start at the physical minimum: `petcert certify` on the embedded target, in this
// process over real sockets, against the Business day count's floor (ceil(perDay / perMinute) minute
// windows: nothing can count a day faster) plus the time conform took. Goal: ≤ 1.05.
async function npmStartRatio(): Promise<void> {
  const plans = embeddedPlans(undefined);
  const business = resolvePlan(plans, 'business');
  const floorMs = Math.ceil(business.perDay / business.perMinute) * plans.windows.minuteSeconds * 1000;
  let conformMs = 0;
  const runners: Runners = {
    conform: async (o) => {
      const t = Date.now();
      try {
        return await realRunners.conform(o);
      } finally {
        conformMs += Date.now() - t;
      }
    },
    quota: realRunners.quota,
  };
  const start = Date.now();
  const { server, target } = await startEmbedded(plans);
  let failed = -1;
  try {
    const report = await certify(
      {
        baseUrl: target.baseUrl,
        production: false,
        conformKeys: target.conformKeys,
        quotaKeys: target.quotaKeys,
        plans: target.plans,
        version: 'bench',
      },
      runners,
    );
    failed = report.checks.filter((c) => c.outcome === 'fail').length;
  } finally {
    await server.close();
  }
  const wallMs = Date.now() - start;
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  console.log(
    `\nnpm start (certify, embedded target): wall ${s(wallMs)}; Business day floor ${s(floorMs)} + conform ${s(conformMs)} = ${s(floorMs + conformMs)}`,
  );
  console.log(`  ratio ${(wallMs / (floorMs + conformMs)).toFixed(3)} (goal ≤ 1.05), ${failed} failed checks`);
}

await npmStartRatio();
