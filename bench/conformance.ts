// `npx tsx bench/conformance.ts`: checked requests per second of a full conformance run against the
// local reference server (in this process; keep-alive, scenario checks concurrent). Every response
// is judged by every response check, so this is the throughput of the whole pipeline.
import { listen } from '../reference/index.ts';
import { runConform } from '../conformance/run.ts';

const KEY = 'petcert-bench-key-0123456789';
const budget = Number(process.argv[2] ?? 30_000);
const plans = {
  windows: { minuteSeconds: 60, daySeconds: 86_400 },
  plans: { bench: { perMinute: 1_000_000_000, perDay: 1_000_000_000 } },
};

const server = await listen({ keys: { [KEY]: 'bench' }, plans, log: () => undefined });
try {
  for (const concurrency of [4, 16]) {
    const started = performance.now();
    const report = await runConform({
      baseUrl: server.baseUrl,
      apiKey: KEY,
      budget,
      maxRuns: 2_000,
      concurrency,
      seed: 1,
    });
    const seconds = (performance.now() - started) / 1000;
    const failing = report.checks.filter((c) => c.outcome === 'fail').map((c) => c.id);
    console.log(
      `conform, concurrency ${concurrency}: ${report.requests} checked requests in ${seconds.toFixed(2)} s = ${Math.round(report.requests / seconds)} req/s` +
        ` · ${report.checks.length} checks · failing: ${failing.length ? failing.join(', ') : 'none'}`,
    );
  }
} finally {
  await server.close();
}
