// `npx tsx bench/startup.ts` (also run by `npm run bench`): `petcert --help` start-up, the built bundle
// the package ships (dist/petcert.js, plain JavaScript) against the sources through tsx (how a checkout
// runs). Runs alternate so machine load falls on both alike; the figure is the ratio of the medians.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildCli } from '../scripts/build.ts';

const RUNS = 9;
const root = fileURLToPath(new URL('..', import.meta.url));
// Inside the checkout (ignored .cache/), so the bundle resolves the installed runtime dependencies.
const dir = join(root, '.cache/bench-startup');
const bundle = await buildCli(join(dir, 'dist/petcert.js'));
const runner = join(dir, 'run.mjs');
writeFileSync(
  runner,
  `const { main } = await import(${JSON.stringify(bundle)});\nprocess.exitCode = await main(process.argv);\n`,
);

function seconds(args: string[]): number {
  const started = performance.now();
  const run = spawnSync(process.execPath, args, { cwd: root, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`${args.join(' ')} exited ${run.status}: ${run.stderr}`);
  return (performance.now() - started) / 1000;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const built: number[] = [];
const source: number[] = [];
const bare: number[] = [];
for (let i = 0; i < RUNS; i++) {
  built.push(seconds([runner, '--help']));
  source.push(seconds([join(root, 'bin/petcert.js'), '--help']));
  bare.push(seconds(['-e', '']));
}
console.log(
  `petcert --help, median of ${RUNS}: bundle ${median(built).toFixed(3)} s, sources via tsx ${median(source).toFixed(3)} s, bare node` +
    ` ${median(bare).toFixed(3)} s`,
);
console.log(
  `bundle / tsx = ${(median(built) / median(source)).toFixed(2)}×; bundle above bare node: ${(median(built) - median(bare)).toFixed(3)} s`,
);
