import { describe, expect, test } from 'vitest';
import {
  comments,
  importEdges,
  issueCitations,
  longLines,
  MAX_LINE,
  runtimeDependencies,
  violations,
  wordSources,
  type Edge,
} from './house.ts';

const edges = importEdges();
const packages = runtimeDependencies();

test('the house rule holds on every resolved import of the repository', () => {
  expect(edges.length).toBeGreaterThan(300);
  expect(violations(edges, packages)).toEqual([]);
});

test.for<[string, Edge, RegExp]>([
  [
    'a back-edge (spec → cli)',
    { from: 'spec/plans.ts', to: 'cli/main.ts', kind: 'file' },
    /spec\/plans\.ts imports cli\/main\.ts: spec\/ may import only core/,
  ],
  [
    'an engine importing another (conformance → load)',
    { from: 'conformance/run.ts', to: 'load/quota.ts', kind: 'file' },
    /conformance\/run\.ts imports load\/quota\.ts/,
  ],
  [
    'product importing the test kit',
    { from: 'reference/app.ts', to: 'testkit/reference/in-process.ts', kind: 'file' },
    /testkit\/ is workshop/,
  ],
  ['product importing a benchmark', { from: 'cli/main.ts', to: 'bench/main.ts', kind: 'file' }, /bench\/ is workshop/],
  [
    'product importing vitest',
    { from: 'report/html.ts', to: 'vitest', kind: 'package' },
    /report\/html\.ts imports the package vitest/,
  ],
  [
    'product importing a dev-only package at run time',
    { from: 'load/quota.ts', to: 'esbuild', kind: 'package' },
    /not a runtime dependency/,
  ],
  [
    'a circle between cli/ files',
    { from: 'cli/capacity-merge.ts', to: 'cli/capacity.ts', kind: 'file' },
    /an import circle: cli\/capacity-merge\.ts ↔ cli\/capacity\.ts/,
  ],
  [
    'a circle between any product files',
    { from: 'load/capacity/canary-plan.ts', to: 'load/capacity/plan.ts', kind: 'file' },
    /an import circle: load\/capacity\/canary-plan\.ts ↔ load\/capacity\/plan\.ts/,
  ],
  // Erased at build time, a type-only circle still ties two files together for a reader.
  [
    'a type-only circle',
    { from: 'cli/capacity-merge.ts', to: 'cli/capacity.ts', kind: 'file', typeOnly: true },
    /an import circle: cli\/capacity-merge\.ts ↔ cli\/capacity\.ts/,
  ],
])('an injected %s is reported with the offending edge', ([, edge, message]) => {
  const found = violations([...edges, edge], packages);
  expect(found).toHaveLength(1);
  expect(found[0]).toMatch(message);
});

test('tests, kits and benches may import anything; type-only imports of dev packages are erased', () => {
  const allowed: Edge[] = [
    { from: 'spec/plans.test.ts', to: 'testkit/report/fixtures.ts', kind: 'file' },
    { from: 'testkit/conformance/faults.ts', to: 'reference/index.ts', kind: 'file' },
    { from: 'bench/main.ts', to: 'cli/main.ts', kind: 'file' },
    { from: 'spec/contract.ts', to: 'json-schema-to-ts', kind: 'package', typeOnly: true },
  ];
  expect(violations(allowed, packages)).toEqual([]);
  // A test importing what it tests is no circle.
  const erased: Edge[] = [{ from: 'cli/capacity.ts', to: 'cli/capacity.test.ts', kind: 'file' }];
  expect(violations([...edges, ...erased], packages)).toEqual([]);
});

describe('the rules of words', () => {
  const files = wordSources();

  test(`no non-test, non-generated TypeScript line is past ${MAX_LINE} characters (file:line)`, () => {
    expect(files.length).toBeGreaterThan(300);
    expect(longLines(files)).toEqual([]);
  });

  test('no comment cites an issue or a review (file:line)', () => {
    expect(issueCitations(files)).toEqual([]);
  });

  test('every folder is read, load/probes/ included, and no generated file is', () => {
    expect(files.some((f) => f.path.startsWith('load/probes/'))).toBe(true);
    expect(files.some((f) => f.path.startsWith('cli/'))).toBe(true);
    expect(files.some((f) => f.path.endsWith('.gen.ts'))).toBe(false);
  });

  test('a long line is named as file:line; tests and generated files may run long', () => {
    const long = 'x'.repeat(MAX_LINE + 1);
    const found = longLines([
      { path: 'report/a.ts', text: `ok\n${'x'.repeat(MAX_LINE)}\n${long}` },
      { path: 'report/a.test.ts', text: long },
      { path: 'spec/contract.gen.ts', text: long },
    ]);
    expect(found).toEqual(['report/a.ts:3']);
  });

  test.for<[string, string]>([
    ['an issue and its section', '// the verdict (issue 15 §1)'],
    ['an issue by number sign', '/** shape fixed by issue #10 */'],
    ['a bare number sign', 'const a = 1; // see #27'],
    ['a review', '  // Review R3: 5 of 5 by hand'],
    ['in a block comment', '/*\n * as issues 12 asks\n */'],
  ])('a comment citing %s is named as file:line', ([, text]) => {
    const line = text.split('\n').findIndex((l) => /\d/.test(l)) + 1;
    expect(issueCitations([{ path: 'core/a.ts', text }])).toEqual([`core/a.ts:${line}`]);
  });

  test.for<[string, string]>([
    ['an HTML entity in a comment', "// '&#60;b&#62;' is the escaped <b>"],
    ['a spec section', '// §8.2: Reset is a Unix timestamp'],
    ['a CSS colour in a string', "const red = '#123';"],
    ['an issue number in a string', "const s = 'issue 15';"],
    ['an issue number in a template', 'const s = `issue ${n} #12`;'],
    ['a number sign after a letter', '// C#12 is no citation'],
  ])('%s is no citation', ([, text]) => {
    expect(issueCitations([{ path: 'core/a.ts', text }])).toEqual([]);
  });

  test('comments are read from the syntax tree: leading, trailing, inside a template expression, before a closing brace', () => {
    const text = 'const a = `${1 /* in */}`; // after\nfunction f() {\n  g();\n  // last\n}\n';
    expect(comments('x.ts', text).map((c) => [c.line, c.text])).toEqual([
      [1, '/* in */'],
      [1, '// after'],
      [4, '// last'],
    ]);
  });
});
