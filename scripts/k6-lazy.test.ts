// A `*.lazy.ts` module in a k6 bundle: evaluated on the first call of an export, once; a k6 import in
// it is refused; and the capacity bundle keeps its cold path (plan building, the contract) inside one.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildK6, K6_SOURCE_DIR } from './build-k6.ts';

const dir = mkdtempSync(join(tmpdir(), 'petcert-k6-lazy-'));

const LAZY = `(globalThis as { evaluated?: number }).evaluated = ((globalThis as { evaluated?: number }).evaluated ?? 0) + 1;
const TABLE = { factor: 2 };
export function double(x: number): number { return x * TABLE.factor; }
export const describeIt = (s: string): string => \`lazy \${s}\`;
`;
const ENTRY = `import { describeIt, double } from './cold.lazy.ts';
export const run = (x: number): string => describeIt(String(double(x)));
`;

/** The eager part of a bundle: its text with the lazy loader's body cut out. */
function eagerText(text: string): string {
  const start = text.indexOf('(loaded = (() => {');
  const end = text.indexOf('return __petcertLazy;');
  expect(start).toBeGreaterThan(-1);
  expect(end).toBeGreaterThan(start);
  return text.slice(0, start) + text.slice(end);
}

describe('lazy modules (scripts/k6-lazy.ts)', () => {
  it('evaluates the module on the first call of an export, once, and forwards every export', async () => {
    writeFileSync(join(dir, 'cold.lazy.ts'), LAZY);
    writeFileSync(join(dir, 'entry.ts'), ENTRY);
    const [out] = await buildK6(join(dir, 'dist'), [join(dir, 'entry.ts')]);
    const g = globalThis as { evaluated?: number };
    delete g.evaluated;
    const bundle = (await import(pathToFileURL(out!).href)) as { run(x: number): string };
    expect(g.evaluated).toBeUndefined();
    expect(bundle.run(21)).toBe('lazy 42');
    expect(bundle.run(1)).toBe('lazy 2');
    expect(g.evaluated).toBe(1);
    expect(eagerText(readFileSync(out!, 'utf8'))).not.toContain('factor');
  });

  it('gives a module of one export its loader inside the forwarder: one function per VU, evaluated once', async () => {
    writeFileSync(
      join(dir, 'one.lazy.ts'),
      LAZY.replace('export function double', 'function double').replace('export const describeIt', 'const describeIt') +
        'export const both = (x: number): string => describeIt(String(double(x)));\n',
    );
    writeFileSync(
      join(dir, 'one-entry.ts'),
      `import { both } from './one.lazy.ts';\nexport const run = (x: number): string => both(x);\n`,
    );
    const [out] = await buildK6(join(dir, 'dist-one'), [join(dir, 'one-entry.ts')]);
    const g = globalThis as { evaluated?: number };
    delete g.evaluated;
    const bundle = (await import(pathToFileURL(out!).href)) as { run(x: number): string };
    expect(g.evaluated).toBeUndefined();
    expect([bundle.run(21), bundle.run(2)]).toEqual(['lazy 42', 'lazy 4']);
    expect(g.evaluated).toBe(1);
    const eager = eagerText(readFileSync(out!, 'utf8'));
    expect(eager).not.toContain('function load()');
    expect(eager).not.toContain('factor');
  });

  it('refuses a k6 module in a lazy module (it would need require(), which k6 has at init only)', async () => {
    writeFileSync(
      join(dir, 'k6.lazy.ts'),
      `import http from 'k6/http';\nexport const get = (u: string) => http.get(u);\n`,
    );
    writeFileSync(
      join(dir, 'k6-entry.ts'),
      `import { get } from './k6.lazy.ts';\nexport default () => get('http://127.0.0.1/');\n`,
    );
    await expect(buildK6(join(dir, 'dist-k6'), [join(dir, 'k6-entry.ts')])).rejects.toThrow(/k6\/http/);
  });

  it("keeps the capacity bundle's plan building and the contract out of what every VU evaluates", async () => {
    const [out] = await buildK6(join(dir, 'dist-capacity'), [join(K6_SOURCE_DIR, 'capacity.ts')]);
    const text = readFileSync(out!, 'utf8');
    // The contract's title, and the plan builder's refusal of too few keys: inside the lazy loader only.
    for (const marker of ['Animal Store API', 'function buildPlan(']) {
      expect(text, marker).toContain(marker);
      expect(eagerText(text), marker).not.toContain(marker);
    }
  });

  it('keeps the names of classes the script also declares (an error prints as ConfigError, not ConfigError2)', async () => {
    const lazy = ['class Clash extends Error {}', "export const fail = (): never => { throw new Clash('x'); };"];
    const entry = [
      "import { fail } from './named.lazy.ts';",
      'class Clash {}',
      'export const clash = new Clash();',
      'export const run = (): string => { try { return fail(); } catch (e) { return (e as Error).constructor.name; } };',
    ];
    writeFileSync(join(dir, 'named.lazy.ts'), lazy.join('\n'));
    writeFileSync(join(dir, 'named-entry.ts'), entry.join('\n'));
    const [out] = await buildK6(join(dir, 'dist-named'), [join(dir, 'named-entry.ts')]);
    const bundle = (await import(pathToFileURL(out!).href)) as { run(): string };
    expect(bundle.run()).toBe('Clash');
  });
});
