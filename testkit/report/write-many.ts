// A run that writes its report `count` times into a shared root, all at the same instant (one name):
// spawned several times at once by cli/report-dirs.e2e.test.ts to prove runs sharing a --report-dir
// never leave a half-written report or take each other's folder.
import { writeRunDirs } from '../../cli/report-dirs.ts';
import { daySeries, fixtureReport } from './fixtures.ts';

const [root, count, tag] = process.argv.slice(2);
const at = new Date('2030-01-02T03:04:05Z');
for (let i = 0; i < Number(count); i += 1) {
  // Large enough that writing takes a while: a reader would catch a half-written file.
  const report = fixtureReport({
    target: `http://127.0.0.1:1/v1#${tag}-${i}`,
    series: { 'day:free': daySeries(100, 20_000) },
  });
  writeRunDirs(root!, report, [], 'must', at);
}
