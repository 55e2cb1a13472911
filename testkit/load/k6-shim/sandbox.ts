// A sobek-like global environment for the k6 bundles under node:vm. A fresh vm context holds V8's
// ECMAScript built-ins only (no URL, TextEncoder, fetch, timers, Buffer, process…); this removes
// what sobek lacks on top of that and adds only the globals k6 defines. A bundle touching anything
// else gets the ReferenceError (or "not a function" TypeError) it would get under k6.
// This is not k6: no Go HTTP stack, no executors, no real event loop. It proves the bundle's code
// needs nothing beyond what sobek + the shimmed k6 modules offer.
import vm from 'node:vm';
import { transform } from 'esbuild';

/** V8 globals sobek has no counterpart for (sobek README: no WeakRef/FinalizationRegistry; no Intl, Wasm or shared memory). */
export const ABSENT_GLOBALS = ['Intl', 'WebAssembly', 'SharedArrayBuffer', 'Atomics', 'WeakRef', 'FinalizationRegistry', 'console'] as const;

/**
 * Library methods newer than ES2020, the build target. esbuild lowers syntax to the target but never
 * the library, and a sobek release may lack them: the sandbox holds the bundles to the target.
 */
const NEWER_THAN_ES2020: ReadonlyArray<readonly [string, readonly string[]]> = [
  ['Array.prototype', ['at', 'findLast', 'findLastIndex', 'toSorted', 'toReversed', 'toSpliced', 'with']],
  ['Object.getPrototypeOf(Int8Array.prototype)', ['at', 'findLast', 'findLastIndex', 'toSorted', 'toReversed', 'with']],
  ['String.prototype', ['at', 'replaceAll', 'isWellFormed', 'toWellFormed']],
  ['Object', ['hasOwn', 'groupBy']],
  ['Map', ['groupBy']],
  ['Array', ['fromAsync']],
  ['Promise', ['any', 'withResolvers']],
];

/** What k6 puts on the global object, provided by the caller (see modules.ts). */
export interface K6Globals {
  __ENV: Record<string, string>;
  open(path: string, mode?: string): string;
  console: { log(...a: unknown[]): void; info(...a: unknown[]): void; warn(...a: unknown[]): void; error(...a: unknown[]): void; debug(...a: unknown[]): void };
  setTimeout(cb: (...a: unknown[]) => void, ms?: number, ...args: unknown[]): number;
  clearTimeout(id: number): void;
  setInterval(cb: (...a: unknown[]) => void, ms?: number, ...args: unknown[]): number;
  clearInterval(id: number): void;
  /** Read on every access, like k6's: 0 in the init context of the options pass. */
  vu(): number;
  iter(): number;
}

const STRIP = `(() => {
  for (const name of ${JSON.stringify(ABSENT_GLOBALS)}) delete globalThis[name];
  for (const [owner, names] of ${JSON.stringify(NEWER_THAN_ES2020)}) { const o = eval(owner); for (const n of names) delete o[n]; }
})()`;

// Date.now() and new Date() read the virtual clock; everything else is V8's Date (same prototype).
const FAKE_DATE = `((now) => {
  const RealDate = Date;
  function Date_(...args) {
    if (!new.target) return new RealDate(now()).toString();
    return Reflect.construct(RealDate, args.length ? args : [now()], new.target);
  }
  Date_.prototype = RealDate.prototype;
  Object.defineProperty(RealDate.prototype, 'constructor', { value: Date_, writable: true, configurable: true });
  Date_.UTC = RealDate.UTC; Date_.parse = RealDate.parse; Date_.now = () => now();
  Object.defineProperty(globalThis, 'Date', { value: Date_, writable: true, configurable: true });
})`;

export function createSobekLikeContext(globals: K6Globals, now: () => number): vm.Context {
  const ctx = vm.createContext({}, { codeGeneration: { strings: true, wasm: false } });
  vm.runInContext(STRIP, ctx);
  (vm.runInContext(FAKE_DATE, ctx) as (n: () => number) => void)(now);
  // __ENV is a plain object of the sandbox's own realm, as k6 builds it.
  const env = vm.runInContext(`(${JSON.stringify(globals.__ENV)})`, ctx) as Record<string, string>;
  const define = vm.runInContext(`((name, get) => Object.defineProperty(globalThis, name, { get, configurable: true }))`, ctx) as (n: string, g: () => unknown) => void;
  Object.assign(ctx, { __ENV: env, open: globals.open, console: globals.console });
  Object.assign(ctx, { setTimeout: globals.setTimeout, clearTimeout: globals.clearTimeout, setInterval: globals.setInterval, clearInterval: globals.clearInterval });
  define('__VU', globals.vu);
  define('__ITER', globals.iter);
  return ctx;
}

/** The names a sobek-like context offers, for the test that pins the list. */
export function globalNames(ctx: vm.Context): string[] {
  return (vm.runInContext('Object.getOwnPropertyNames(globalThis)', ctx) as string[]).slice().sort();
}

/** The ESM bundle as CommonJS: its `import … from "k6/…"` become calls of the `require` we pass in. */
export async function bundleToCommonJs(esm: string, name: string): Promise<string> {
  const out = await transform(esm, { format: 'cjs', target: 'es2020', loader: 'js', sourcefile: name, logLevel: 'silent' });
  return out.code;
}

export type K6Require = (specifier: string) => unknown;

/** Runs the module body (the k6 init context) in `ctx` and returns its exports. */
export function evaluateModule(ctx: vm.Context, cjs: string, filename: string, require: K6Require): Record<string, unknown> {
  const fn = vm.compileFunction(cjs, ['require', 'module', 'exports'], { parsingContext: ctx, filename });
  const module = vm.runInContext('({ exports: {} })', ctx) as { exports: Record<string, unknown> };
  fn(require, module, module.exports);
  return module.exports;
}
