// The bundles k6 tests run: load/k6's scripts and testkit/k6/fixtures, built once per test file into a
// temporary folder with the same esbuild settings as `npm run build`.
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildK6 } from '../../scripts/build-k6.ts';

const FIXTURES = fileURLToPath(new URL('./fixtures', import.meta.url));

/** Builds every script and fixture; returns the folder of <name>.js bundles. */
export async function buildBundles(): Promise<string> {
  const dist = mkdtempSync(join(tmpdir(), 'petcert-k6-dist-'));
  await buildK6(dist);
  await buildK6(
    dist,
    readdirSync(FIXTURES)
      .filter((f) => f.endsWith('.js'))
      .map((f) => join(FIXTURES, f)),
  );
  return dist;
}
