// `npm run build` (also `prepack`): what the package ships, plain JavaScript only.
// dist/petcert.js: the command line as one ESM bundle for Node 20 (runtime dependencies stay external,
// installed beside it), so no TypeScript compiler runs at start-up. load/dist/*.js: the k6 bundles.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildK6 } from './build-k6.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
export const CLI_BUNDLE = join(root, 'dist/petcert.js');

export async function buildCli(outfile = CLI_BUNDLE): Promise<string> {
  rmSync(join(outfile, '..'), { recursive: true, force: true });
  await build({
    entryPoints: [join(root, 'cli/main.ts')],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    logLevel: 'warning',
    legalComments: 'none',
  });
  return outfile;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const cli = await buildCli();
  const k6 = await buildK6();
  console.log(`built ${cli} and ${k6.length} k6 bundles into load/dist/`);
}
