import { expect, test } from 'vitest';
import { importEdges, runtimeDependencies, violations, type Edge } from './house.ts';

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
  // cli/capacity.ts ↔ cli/capacity-merge.ts imported each other until the capacity engine left cli/.
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
  // Erased at build time, a type-only circle still ties two files together for a reader (minute.ts ↔ minute-bucket.ts did).
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
