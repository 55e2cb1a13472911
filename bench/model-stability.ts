// "Any limiter model, never a flaky verdict": runs `petcert quota`'s engine and certify against the
// reference server as each correct limiter model (testkit/load/model-runs.ts) N times at once, a machine
// loaded on purpose, and prints per model how many runs came out as they must (no failure, no stop, a
// model the evidence allows) and how often the model itself was told (a sliding log and a token bucket
// can look alike in whole-second Resets). load/limiter-models.e2e.test.ts runs each once.
//   npm run bench:models -- [--runs 10]
import { parseArgs } from 'node:util';
import {
  certifyOnModel,
  MODELS,
  modelsTold,
  notAsExpected,
  quotaOnModel,
  type CorrectModel,
} from '../testkit/load/model-runs.ts';
import type { Report } from '../report/model.ts';

const USAGE = 'usage: npm run bench:models -- [--runs N]';

function runsOrExit(): number {
  try {
    const { values } = parseArgs({ options: { runs: { type: 'string', default: '10' } } });
    const n = Number(values.runs);
    if (Number.isInteger(n) && n >= 1 && n <= 100) return n;
    throw new Error(`--runs ${JSON.stringify(values.runs)}: expected a whole number from 1 to 100`);
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    process.exit(2);
  }
}

interface Row {
  label: string;
  good: number;
  /** Why each run that was not as it must be was not. */
  bad: string[];
  /** Among the keys' told models, how many were the model itself. */
  toldExactly: number;
  toldKeys: number;
}

async function row(label: string, limiterModel: CorrectModel, runs: number, once: () => Promise<Report>): Promise<Row> {
  const settled = await Promise.allSettled(Array.from({ length: runs }, once));
  const out: Row = { label, good: 0, bad: [], toldExactly: 0, toldKeys: 0 };
  for (const s of settled) {
    if (s.status === 'rejected') {
      out.bad.push(`error ${String(s.reason).split('\n')[0]!.slice(0, 100)}`);
      continue;
    }
    const why = notAsExpected(limiterModel, s.value);
    if (why === undefined) out.good += 1;
    else out.bad.push(why);
    const told = modelsTold(s.value);
    out.toldKeys += told.length;
    out.toldExactly += told.filter((m) => m === limiterModel).length;
  }
  return out;
}

const runs = runsOrExit();
const started = Date.now();
// Every model's quota runs at once, then every model's certify runs: 3 × N runs at a time load the
// machine on purpose.
const rows = [
  ...(await Promise.all(MODELS.map((m) => row(`quota ${m}`, m, runs, () => quotaOnModel(m))))),
  ...(await Promise.all(MODELS.map((m) => row(`certify ${m}`, m, runs, () => certifyOnModel(m))))),
];

console.log(`| run | as it must be | the model itself told (keys) | not as it must be |`);
console.log('|---|---|---|---|');
for (const r of rows)
  console.log(`| ${r.label} | ${r.good}/${runs} | ${r.toldExactly}/${r.toldKeys} | ${r.bad.join('; ') || '—'} |`);
console.log(
  `\n${rows.length * runs} runs, ${runs} of each at once, in ${((Date.now() - started) / 1000).toFixed(0)} s`,
);
process.exitCode = rows.every((r) => r.good === runs) ? 0 : 1;
