// `npm run build`: one esbuild bundle per k6 script (load/k6/*.ts → load/dist/*.js). ESM, ES2020,
// platform neutral, `k6` and `k6/*` left external for the k6 runtime; everything else (the pure probe
// core, spec/) is inlined, a `*.lazy.ts` module as a function evaluated on first use (scripts/k6-lazy.ts).
// A bundle that mentions a Node API is an error: k6 has none.
import { build } from 'esbuild';
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { lazyModules, type LazyShared } from './k6-lazy.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
export const K6_SOURCE_DIR = join(root, 'load/k6');
export const K6_DIST_DIR = join(root, 'load/dist');

/** Text in a bundle that means a Node API slipped in. */
export const NODE_MARKERS = [/\bfrom\s*["']node:/, /\brequire\(/, /\bundici\b/, /\bimport\(\s*["']node:/];

export function k6Scripts(): string[] {
  return readdirSync(K6_SOURCE_DIR).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.endsWith('.d.ts'));
}

/** Bundles the scripts of load/k6 (or the given entry points, e.g. test fixtures) into outdir. */
export async function buildK6(
  outdir = K6_DIST_DIR,
  entryPoints = k6Scripts().map((f) => join(K6_SOURCE_DIR, f)),
): Promise<string[]> {
  const shared: LazyShared = {
    target: 'es2020',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    legalComments: 'none',
  };
  await build({
    ...shared,
    entryPoints,
    outdir,
    bundle: true,
    format: 'esm',
    external: ['k6', 'k6/*'],
    logLevel: 'warning',
    plugins: [lazyModules(shared)],
  });
  const outputs = entryPoints.map((e) => join(outdir, basename(e).replace(/\.ts$/, '.js')));
  for (const file of outputs) {
    const text = readFileSync(file, 'utf8');
    const marker = NODE_MARKERS.find((m) => m.test(text));
    if (marker)
      throw new Error(`${file}: contains a Node API (${marker}); k6 scripts may import only k6 modules and pure code`);
  }
  return outputs;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const outputs = await buildK6();
  console.log(`built ${outputs.length} k6 bundles into load/dist/`);
}
