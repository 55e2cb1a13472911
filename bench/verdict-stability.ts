// No verdict may flip between runs on a correct server (docs/decisions/007). Runs every limiter proof of
// testkit/limiters/ (the real-library servers, their faulty twins, the wrappers) N times and prints one
// row per proof: how often each verdict came out, so a flip is visible. --details FILE keeps every
// failed or unjudged check's message per run. Then, for the correct
// servers, the table of limiter × rule: how each MUST rule fared over all runs and keys (J judged,
// U unjudged, F failed — a false alarm on a correct server, n/a not applicable).
//   npm run bench:limiters -- [--runs 10] [--parallel 2] [--correct | --faulty] [--only NAME-PREFIX ...]
//     [--name EXACT-NAME ...] [--details FILE]
import { appendFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { ALL_PROOFS } from '../testkit/limiters/all-proofs.ts';
import { judgeProof, runProof, type Proof } from '../testkit/limiters/proofs.ts';
import { verdictCell, type RuleState, type RunVerdict } from '../testkit/limiters/verdict.ts';

const USAGE =
  'usage: npm run bench:limiters -- [--runs N] [--parallel N] [--correct | --faulty] ' +
  '[--only NAME-PREFIX ...] [--name EXACT-NAME ...] [--details FILE]';

function argsOrExit(): ReturnType<typeof parse> {
  try {
    return parse();
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    process.exit(2);
  }
}

function parse() {
  return parseArgs({
    options: {
      runs: { type: 'string', default: '10' },
      parallel: { type: 'string', default: '2' },
      only: { type: 'string', multiple: true, default: [] },
      name: { type: 'string', multiple: true, default: [] },
      details: { type: 'string' },
      correct: { type: 'boolean', default: false },
      faulty: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
}

function countOrExit(flag: string, text: string): number {
  const n = Number(text);
  if (Number.isInteger(n) && n >= 1 && n <= 1000) return n;
  console.error(`--${flag} ${JSON.stringify(text)}: expected a whole number from 1 to 1000\n${USAGE}`);
  process.exit(2);
}

const { values } = argsOrExit();
if (values.help) {
  console.log(`${USAGE}\nproofs: ${ALL_PROOFS.map((p) => p.name).join(', ')}`);
  process.exit(0);
}
const runs = countOrExit('runs', values.runs);
const parallel = countOrExit('parallel', values.parallel);
const picked = (p: Proof): boolean =>
  (values.only.length === 0 && values.name.length === 0) ||
  values.only.some((o) => p.name.startsWith(o)) ||
  values.name.includes(p.name);
const proofs = ALL_PROOFS.filter(picked)
  .filter((p) => !values.correct || p.expect === 'pass')
  .filter((p) => !values.faulty || p.expect !== 'pass');
if (proofs.length === 0) {
  console.error(`no proof matches these filters (--help lists them)\n${USAGE}`);
  process.exit(2);
}

interface Row {
  proof: Proof;
  cells: Map<string, number>;
  good: number;
  /** rule (check id without [plan]) → state → count, over every run and key. */
  rules: Map<string, Map<string, number>>;
}

const LETTER: Record<RuleState, string> = { judged: 'J', unjudged: 'U', failed: 'F', 'n/a': 'n/a' };

function tally(row: Row, v: RunVerdict): void {
  for (const m of v.musts) {
    const rule = m.id.replace(/\[.*\]$/, '');
    const states = row.rules.get(rule) ?? new Map<string, number>();
    states.set(m.state, (states.get(m.state) ?? 0) + 1);
    row.rules.set(rule, states);
  }
}

function ruleTable(rows: Row[]): string[] {
  const correct = rows.filter((r) => r.proof.expect === 'pass' && r.rules.size > 0);
  const rules = [...new Set(correct.flatMap((r) => [...r.rules.keys()]))].sort();
  const cell = (r: Row, rule: string): string => {
    const states = r.rules.get(rule);
    if (!states) return '—';
    return [...states].map(([state, n]) => `${LETTER[state as RuleState]}${n}`).join(' ');
  };
  return [
    `| rule | ${correct.map((r) => r.proof.name).join(' | ')} |`,
    `|---|${correct.map(() => '---').join('|')}|`,
    ...rules.map((rule) => `| ${rule.replace(/^quota\./, '')} | ${correct.map((r) => cell(r, rule)).join(' | ')} |`),
  ];
}

async function pool<T>(items: T[], width: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.max(1, width) }, lane));
}

const rows: Row[] = proofs.map((proof) => ({ proof, cells: new Map(), good: 0, rules: new Map() }));
const jobs = rows.flatMap((row) => Array.from({ length: runs }, () => row));
const started = Date.now();
await pool(jobs, parallel, async (row) => {
  let cell: string;
  try {
    const v = await runProof(row.proof);
    cell = verdictCell(v);
    tally(row, v);
    if (values.details)
      appendFileSync(
        values.details,
        `${JSON.stringify({ proof: row.proof.name, code: v.code, failed: v.failed, unjudged: v.unjudged })}\n`,
      );
    if (judgeProof(row.proof, v) === undefined) row.good++;
  } catch (error) {
    cell = `error ${String(error).split('\n')[0]!.slice(0, 80)}`;
  }
  row.cells.set(cell, (row.cells.get(cell) ?? 0) + 1);
  process.stderr.write('.');
});
process.stderr.write('\n');

console.log(`| proof | expected | as expected | verdicts (of ${runs}) |`);
console.log('|---|---|---|---|');
for (const row of rows) {
  const cells = [...row.cells].map(([cell, n]) => `${n}× ${cell}`).join('; ');
  console.log(
    `| ${row.proof.name} | ${row.proof.expect === 'pass' ? 'PASS' : `FAIL ${row.proof.expect}`} | ${row.good}/${runs} | ${cells} |`,
  );
}
console.log(
  '\nCorrect servers, limiter × MUST rule over all runs and keys (J judged, U unjudged, F failed = false alarm):',
);
for (const line of ruleTable(rows)) console.log(line);
console.log(`\n${jobs.length} runs in ${((Date.now() - started) / 1000).toFixed(0)} s`);
process.exitCode = rows.every((r) => r.good === runs) ? 0 : 1;
