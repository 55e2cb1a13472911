// A `*.lazy.ts` module imported by a k6 script is bundled as one function, its body evaluated on the
// first call of any of its exports, in that k6 runtime only. Why: k6 evaluates a script's top level
// once per VU, and every function declared there (and every object literal, e.g. the generated
// contract) is an object in every VU's runtime: measured with k6 v2.2.0 at 167 VUs, 400 top-level
// functions cost 55 MB and a 300-entry literal 93 MB, the same wrapped in an uncalled function ~1 MB
// (that is the code, compiled once per process: the same at 10 VUs; each function object ≈ 0.7 KB per VU).
// esbuild's own lazy wrapper (__esm, for a dynamic import) delays a module's data but still hoists its
// functions to the top level, and k6's init context cannot await. So the capacity bundle's cold path
// (plan building, the contract's data, the summary) lives in such a module and costs only the runtimes
// that call it: the first init, the summary's, a canary's.
//
// A lazy module exports functions only (each export becomes `(...args) => load().name(...args)`), and
// imports no k6 module: it is bundled on its own, where `k6/*` cannot be resolved (a k6 module would
// come back as a require(), which k6 offers in the init context only).
import { build, type BuildOptions, type Plugin } from 'esbuild';
import { dirname } from 'node:path';
import { errorMessage } from '../core/errors.ts';

export const LAZY_MODULE = /\.lazy\.ts$/;
/** The IIFE's global name, local to the loader function that holds it. */
const GLOBAL = '__petcertLazy';

/** The build options a lazy module's own bundle shares with the script's. */
export type LazyShared = Pick<BuildOptions, 'target' | 'platform' | 'mainFields' | 'legalComments'>;

async function exportNames(path: string, shared: LazyShared): Promise<string[]> {
  const out = await build({
    ...shared,
    entryPoints: [path],
    bundle: true,
    format: 'esm',
    write: false,
    metafile: true,
    outdir: '/lazy',
    logLevel: 'silent',
  });
  return Object.values(out.metafile.outputs).flatMap((o) => o.exports);
}

async function iifeCode(path: string, shared: LazyShared): Promise<{ code: string; inputs: string[] }> {
  const out = await build({
    ...shared,
    entryPoints: [path],
    bundle: true,
    format: 'iife',
    globalName: GLOBAL,
    write: false,
    metafile: true,
    logLevel: 'silent',
    // The script's bundle renames what the loader holds when a name is also the script's (ConfigError in
    // both): keepNames keeps a class's `name`, which errors print (core/errors.ts sets it from new.target).
    keepNames: true,
  });
  return { code: out.outputFiles[0]!.text, inputs: Object.keys(out.metafile.inputs) };
}

/**
 * The module k6 sees instead of the lazy one: a loader evaluated once, and one forwarding function per
 * export. A module of one export (the capacity bundle's) gets its loader inside the forwarder: one
 * function object per VU, not two.
 */
export function lazyModuleText(code: string, names: readonly string[]): string {
  const loaded = `(loaded ??= (() => {\n${code}\nreturn ${GLOBAL};\n  })())`;
  if (names.length === 1) return `let loaded;\nexport const ${names[0]} = (...args) => ${loaded}.${names[0]}(...args);`;
  return [
    'let loaded;',
    `function load() {\n  return ${loaded};\n}`,
    ...names.map((name) => `export const ${name} = (...args) => load().${name}(...args);`),
  ].join('\n');
}

/** The esbuild plugin: `*.lazy.ts` loaded as lazyModuleText of its own IIFE bundle. */
export function lazyModules(shared: LazyShared): Plugin {
  return {
    name: 'petcert-k6-lazy-modules',
    setup(b) {
      b.onLoad({ filter: LAZY_MODULE }, async ({ path }) => {
        try {
          const [names, { code, inputs }] = await Promise.all([exportNames(path, shared), iifeCode(path, shared)]);
          return { contents: lazyModuleText(code, names), loader: 'js', resolveDir: dirname(path), watchFiles: inputs };
        } catch (error) {
          const why = errorMessage(error);
          return {
            errors: [{ text: `lazy module ${path} (pure code only, no k6 module: scripts/k6-lazy.ts): ${why}` }],
          };
        }
      });
    },
  };
}
