// `npm run bench`: runs each area's benchmark in turn, in separate processes so one area's
// warm JIT or open sockets do not colour another's figures. Each prints ratios measured in one run.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const benches = [
  'bench/startup.ts',
  'bench/reference.ts',
  'bench/conformance.ts',
  'bench/load.ts',
  'bench/capacity.ts',
  'bench/capacity-scale.ts',
];
const only = process.argv.slice(2);

let failed = false;
for (const bench of benches) {
  if (only.length && !only.some((name) => bench.startsWith(name))) continue;
  if (!existsSync(`${root}${bench}`)) {
    console.log(`\n== ${bench}: not present, skipped`);
    continue;
  }
  console.log(`\n== ${bench}`);
  const run = spawnSync(process.execPath, ['--import', 'tsx', bench], {
    cwd: root,
    stdio: 'inherit',
    timeout: 10 * 60_000,
  });
  if (run.status !== 0) {
    failed = true;
    console.log(`== ${bench} failed (exit ${run.status ?? run.signal})`);
  }
}
process.exitCode = failed ? 1 : 0;
