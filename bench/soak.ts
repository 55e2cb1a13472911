// `npx tsx reference/soak.ts [seconds]` (default 60): the reference server, in its own process, under
// the bench's load (32 keep-alive connections kept busy on loopback: GET /pets, POST /pets, GET /pets/{id})
// for a bounded time. Every 5 s it prints throughput, errors and the server's memory after a GC; at the
// end, whether memory stayed flat. Exit 1 on any error response or memory growth past the bound.
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';
import { parsePlansFile } from '../spec/plans.ts';
import { listen } from '../reference/server.ts';

const KEY = 'soak-key';
const CONNECTIONS = 32;
const REPORT_EVERY_MS = 5_000;
/** The store is bounded (oldest pets evicted): a small bound is reached in seconds, so flat means flat. */
const MAX_PETS = 10_000;
/** Growth of the post-GC heap from the first to the last quarter of the run that counts as a leak. */
const HEAP_GROWTH_BOUND = 16 * 1024 * 1024;

interface Memory {
  rss: number;
  heapUsed: number;
}

async function target(): Promise<void> {
  const plans = parsePlansFile(
    { plans: { soak: { perMinute: 1_000_000_000, perDay: 1_000_000_000_000 } } },
    'soak plans',
  );
  const server = await listen({ plans, keys: { [KEY]: 'soak' }, maxPets: MAX_PETS });
  process.send!({ port: server.port });
  process.on('message', () => {
    (globalThis as { gc?: () => void }).gc?.();
    const { rss, heapUsed } = process.memoryUsage();
    process.send!({ rss, heapUsed });
  });
}

function memoryOf(child: ReturnType<typeof fork>): Promise<Memory> {
  return new Promise((resolve) => {
    child.once('message', (m) => resolve(m as Memory));
    child.send('mem');
  });
}

const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

interface Tally {
  requests: number;
  errors: number;
  byStatus: Record<string, number>;
}

async function load(pool: Pool, endAt: number, tally: Tally): Promise<void> {
  const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
  const worker = async (w: number): Promise<void> => {
    for (let i = 0; performance.now() < endAt; i++) {
      const kind = (i + w) % 10;
      const opts =
        kind < 6
          ? { path: '/v1/pets?limit=20', method: 'GET' as const }
          : kind < 9
            ? {
                path: '/v1/pets',
                method: 'POST' as const,
                body: JSON.stringify({ name: `soak ${w}-${i}`, categoryId: 1 + (i % 5), status: 'available' }),
              }
            : { path: `/v1/pets/${1 + ((i * 7919) % MAX_PETS)}`, method: 'GET' as const };
      let status = 'transport';
      try {
        const res = await pool.request({ ...opts, headers });
        await res.body.dump();
        status = String(res.statusCode);
      } catch {
        // counted as a transport error below
      }
      tally.requests++;
      tally.byStatus[status] = (tally.byStatus[status] ?? 0) + 1;
      // A GET by id may hit an evicted pet (404, correct); anything else non-2xx is an error.
      if (!(status.startsWith('2') || (kind === 9 && status === '404'))) tally.errors++;
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, (_, w) => worker(w)));
}

async function soak(seconds: number): Promise<void> {
  const child = fork(fileURLToPath(import.meta.url), ['--target'], { execArgv: ['--expose-gc', '--import', 'tsx'] });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (m) => resolve((m as { port: number }).port));
    child.once('exit', (code) => reject(new Error(`soak target exited (${code})`)));
  });
  const pool = new Pool(`http://127.0.0.1:${port}`, { connections: CONNECTIONS, pipelining: 1 });
  const tally: Tally = { requests: 0, errors: 0, byStatus: {} };
  const samples: Array<{ t: number; rate: number; errors: number } & Memory> = [];
  const started = performance.now();
  console.log(`soak: ${seconds} s, ${CONNECTIONS} connections, store bound ${MAX_PETS} pets, server pid ${child.pid}`);
  console.log(
    `start       server memory after GC: ${await memoryOf(child).then((m) => `heap ${mb(m.heapUsed)}, rss ${mb(m.rss)}`)}`,
  );
  try {
    const running = load(pool, started + seconds * 1000, tally);
    let last = { at: started, requests: 0, errors: 0 };
    const report = async (): Promise<void> => {
      const now = performance.now();
      const mem = await memoryOf(child);
      const rate = (tally.requests - last.requests) / ((now - last.at) / 1000);
      const sample = { t: (now - started) / 1000, rate, errors: tally.errors - last.errors, ...mem };
      samples.push(sample);
      console.log(
        `t=${sample.t.toFixed(0).padStart(4)} s  ${rate.toFixed(0).padStart(6)} req/s  errors ${sample.errors}  heap ${mb(mem.heapUsed)}  rss ${mb(mem.rss)}`,
      );
      last = { at: now, requests: tally.requests, errors: tally.errors };
    };
    const timer = setInterval(() => void report(), REPORT_EVERY_MS);
    await running;
    clearInterval(timer);
    await report();
  } finally {
    await pool.close();
    child.kill();
  }
  const quarter = Math.max(1, Math.floor(samples.length / 4));
  const avg = (xs: typeof samples, f: (s: (typeof samples)[number]) => number): number =>
    xs.reduce((a, s) => a + f(s), 0) / xs.length;
  const early = avg(samples.slice(0, quarter), (s) => s.heapUsed);
  const late = avg(samples.slice(-quarter), (s) => s.heapUsed);
  const seconds_ = (performance.now() - started) / 1000;
  console.log(
    `total: ${tally.requests} requests in ${seconds_.toFixed(1)} s (${(tally.requests / seconds_).toFixed(0)} req/s), errors` +
      ` ${tally.errors}, statuses ${JSON.stringify(tally.byStatus)}`,
  );
  console.log(
    `memory: heap first quarter ${mb(early)}, last quarter ${mb(late)} (growth ${mb(late - early)}, bound ${mb(HEAP_GROWTH_BOUND)}); rss max` +
      ` ${mb(Math.max(...samples.map((s) => s.rss)))}`,
  );
  const flat = late - early < HEAP_GROWTH_BOUND;
  console.log(
    `verdict: ${tally.errors === 0 && flat ? 'OK' : 'FAILED'} (${tally.errors} errors, memory ${flat ? 'flat' : 'GROWING'})`,
  );
  if (tally.errors > 0 || !flat) process.exitCode = 1;
}

if (process.argv.includes('--target')) {
  await target();
} else {
  const seconds = Number(process.argv[2] ?? 60);
  if (!Number.isFinite(seconds) || seconds < 5 || seconds > 3_600) {
    console.error('usage: npx tsx reference/soak.ts [seconds]   (5 to 3600, default 60)');
    process.exitCode = 2;
  } else {
    await soak(seconds);
  }
}
