// Issue 15 §2: "no verdict that flips between runs on a correct server". Runs every limiter proof of
// testkit/limiters/ (the real-library servers, their faulty twins, the wrappers) N times and prints one
// row per proof: how often each verdict came out, so a flip is visible. --details FILE keeps every
// failed or unjudged check's message per run (what limiters-status.md quotes). Then, for the correct
// servers, the table of limiter × rule: how each MUST rule fared over all runs and keys (J judged,
// U unjudged, F failed — a false alarm on a correct server, n/a not applicable).
//   npm run bench:limiters -- [--runs 10] [--parallel 2] [--correct | --faulty] [--only NAME-PREFIX ...] [--details FILE]
import { appendFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { ALL_PROOFS } from '../testkit/limiters/all-proofs.ts';
import { judgeProof, runProof, type Proof } from '../testkit/limiters/proofs.ts';
import { verdictCell, type RuleState, type RunVerdict } from '../testkit/limiters/verdict.ts';

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '10' }, parallel: { type: 'string', default: '2' }, only: { type: 'string', multiple: true, default: [] },
    details: { type: 'string' },
    correct: { type: 'boolean', default: false },
    faulty: { type: 'boolean', default: false },
  },
});
const runs = Number(values.runs);
const parallel = Number(values.parallel);
const proofs = ALL_PROOFS.filter((p) => values.only.length === 0 || values.only.some((o) => p.name.startsWith(o)))
  .filter((p) => !values.correct || p.expect === 'pass')
  .filter((p) => !values.faulty || p.expect !== 'pass');

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
    if (values.details) appendFileSync(values.details, `${JSON.stringify({ proof: row.proof.name, code: v.code, failed: v.failed, unjudged: v.unjudged })}\n`);
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
  console.log(`| ${row.proof.name} | ${row.proof.expect === 'pass' ? 'PASS' : `FAIL ${row.proof.expect}`} | ${row.good}/${runs} | ${cells} |`);
}
console.log('\nCorrect servers, limiter × MUST rule over all runs and keys (J judged, U unjudged, F failed = false alarm):');
for (const line of ruleTable(rows)) console.log(line);
console.log(`\n${jobs.length} runs in ${((Date.now() - started) / 1000).toFixed(0)} s`);
process.exitCode = rows.every((r) => r.good === runs) ? 0 : 1;
