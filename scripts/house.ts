// The house rule, checked on resolved import paths: product rooms import only product rooms, downward
// (spec/core → http/report → reference | conformance | load → cli → bin); no product file imports the
// test kit, the benchmarks, vitest or a dev-only package; no product files import each other in a
// circle (cli/ included). Tests and benches may import anything. And two rules of words: no line of
// product or workshop code past 160 characters, no comment citing an issue or a review a reader of the
// repository cannot open (a decision a reader needs is written in spec/GAPS.md or docs/decisions/).
// `npx tsx scripts/house.ts` prints every offence; house.test.ts runs the same checks.
import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** What each product room may import (besides itself). */
export const MAY_IMPORT: Record<string, readonly string[]> = {
  core: ['package.json'],
  spec: ['core'],
  http: ['core', 'spec'],
  report: ['core', 'spec'],
  reference: ['core', 'spec', 'http', 'report'],
  conformance: ['core', 'spec', 'http', 'report'],
  load: ['core', 'spec', 'http', 'report'],
  cli: ['core', 'spec', 'http', 'report', 'reference', 'conformance', 'load', 'package.json'],
  bin: ['cli', 'dist'],
};

/** Rooms that are not product: tests, kits, benchmarks and developer scripts import what they need. */
const WORKSHOP = ['testkit', 'bench', 'scripts'];

export interface Edge {
  from: string;
  /** Repository-relative path of a relative import, or the package name of a bare one. */
  to: string;
  kind: 'file' | 'package';
  /** `import type …`: erased at build time, so no run-time dependency (still a design edge between rooms). */
  typeOnly?: boolean;
}

const room = (path: string): string => path.split('/')[0]!;
const isTest = (path: string): boolean => /\.test\.ts$/.test(path);

function sources(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (['node_modules', 'dist', '.git', 'reports', '.cache', 'tools'].includes(e.name)) continue;
    const p = join(dir, e.name);
    if (e.isDirectory()) sources(p, out);
    else if (/\.(ts|js|mjs)$/.test(e.name) && !e.name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

/** Every import of every source file, relative ones resolved to repository paths. */
export function importEdges(root = ROOT): Edge[] {
  const edges: Edge[] = [];
  for (const file of sources(root)) {
    const from = relative(root, file).split(sep).join('/');
    for (const { spec, typeOnly } of specifiers(file)) {
      const to = spec.startsWith('.')
        ? relative(root, resolve(dirname(file), spec))
            .split(sep)
            .join('/')
        : packageName(spec);
      edges.push({ from, to, kind: spec.startsWith('.') ? 'file' : 'package', ...(typeOnly ? { typeOnly } : {}) });
    }
  }
  return edges;
}

/** Static imports, re-exports and dynamic import() calls of one file, read from its syntax tree. */
function specifiers(file: string): Array<{ spec: string; typeOnly: boolean }> {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
  const found: Array<{ spec: string; typeOnly: boolean }> = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const c = node.importClause;
      const named = c?.namedBindings && ts.isNamedImports(c.namedBindings) ? c.namedBindings.elements : undefined;
      const typeOnly = Boolean(
        c && (c.isTypeOnly || (!c.name && named && named.length > 0 && named.every((e) => e.isTypeOnly))),
      );
      found.push({ spec: node.moduleSpecifier.text, typeOnly });
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push({ spec: node.moduleSpecifier.text, typeOnly: node.isTypeOnly });
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      found.push({ spec: node.arguments[0].text, typeOnly: false });
    } else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    ) {
      found.push({ spec: node.argument.literal.text, typeOnly: true });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function packageName(spec: string): string {
  const parts = spec.split('/');
  return spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

export interface Packages {
  dependencies: readonly string[];
}

/** Offending edges, each as a sentence naming the file, what it imports and why that breaks the rule. */
export function violations(edges: readonly Edge[], packages: Packages): string[] {
  const problems: string[] = [];
  /** Edges the rooms allow: a circle is looked for among these (a back-edge is reported as itself). */
  const allowed: Edge[] = [];
  for (const edge of edges) {
    const { from, to, kind, typeOnly } = edge;
    const own = room(from);
    if (!(own in MAY_IMPORT) || isTest(from)) continue;
    if (kind === 'file') {
      const target = room(to);
      if (target === own || MAY_IMPORT[own]!.includes(target)) allowed.push(edge);
      if (target === own) continue;
      if (!MAY_IMPORT[own]!.includes(target))
        problems.push(
          `${from} imports ${to}: ${own}/ may import only ${MAY_IMPORT[own]!.join(', ') || 'itself'}` +
            `${WORKSHOP.includes(target) ? ` (${target}/ is workshop, never product)` : ''}`,
        );
      continue;
    }
    if (typeOnly || to.startsWith('node:') || builtinModules.includes(to)) continue;
    if (to === 'k6' && from.startsWith('load/k6/')) continue;
    // The bin runs the sources through tsx only in a checkout (where dev dependencies are); the package
    // has no sources and runs dist/ (cli/package.e2e.test.ts proves it installs and runs without tsx).
    if (to === 'tsx' && from === 'bin/petcert.js') continue;
    if (!packages.dependencies.includes(to))
      problems.push(
        `${from} imports the package ${to}, which is not a runtime dependency (package.json "dependencies")`,
      );
  }
  for (const group of importCycles(allowed))
    problems.push(
      `an import circle: ${group.join(' ↔ ')} (files that import each other cannot be read or moved apart)`,
    );
  return problems;
}

/**
 * Import circles among product files (cli/ included): each strongly connected group of files, found
 * with Tarjan's algorithm on every file edge, type-only ones too: erased at build time they never decide
 * what loads first, but two files naming each other's types cannot be read or moved apart either. Tests
 * are left out: a test may import what it tests.
 */
export function importCycles(edges: readonly Edge[]): string[][] {
  const product = (path: string) => room(path) in MAY_IMPORT && !isTest(path);
  const next = new Map<string, string[]>();
  for (const { from, to, kind } of edges) {
    if (kind !== 'file' || !product(from) || !product(to)) continue;
    next.set(from, [...(next.get(from) ?? []), to]);
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const group: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      group.push(w);
    } while (w !== v);
    if (group.length > 1 || (next.get(v) ?? []).includes(v)) groups.push(group.sort());
  };
  for (const v of [...next.keys()].sort()) if (!index.has(v)) visit(v);
  return groups;
}

/** The longest line a non-test, non-generated TypeScript file may have (Prettier wraps code at 120, not strings or comments). */
export const MAX_LINE = 160;

/**
 * A comment citing an issue or a review: the word issue(s) before a number, a number sign before digits (not an
 * HTML entity's `&#`, not a spec section's `§`), or review R and a digit.
 */
export const CITES_ISSUE = /\b[Ii]ssues? #?\d+|(?<![&\w])#\d+\b|\b[Rr]eview R\d/;

export interface Source {
  /** Repository-relative, `/`-separated. */
  path: string;
  text: string;
}

const isGenerated = (path: string): boolean => /\.gen\.ts$/.test(path);

/** Every source file the rules of words read: generated files left out. */
export function wordSources(root = ROOT): Source[] {
  return sources(root)
    .map((file) => relative(root, file).split(sep).join('/'))
    .filter((path) => !isGenerated(path))
    .map((path) => ({ path, text: readFileSync(join(root, path), 'utf8') }));
}

/** `file:line` of every line past MAX_LINE characters in a non-test TypeScript file. */
export function longLines(files: readonly Source[]): string[] {
  const found: string[] = [];
  for (const { path, text } of files) {
    if (!path.endsWith('.ts') || isTest(path) || isGenerated(path)) continue;
    text.split('\n').forEach((line, i) => {
      if (line.length > MAX_LINE) found.push(`${path}:${i + 1}`);
    });
  }
  return found;
}

/** Every comment of a file with the line it starts on: each token's leading and same-line trailing comments. */
export function comments(path: string, text: string): Array<{ line: number; text: string }> {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.ES2022, true);
  const ranges = new Map<number, number>();
  const visit = (node: ts.Node): void => {
    if (node.kind >= ts.SyntaxKind.FirstJSDocNode && node.kind <= ts.SyntaxKind.LastJSDocNode) return;
    const children = node.getChildren(source);
    if (children.length === 0) {
      const around = [
        ...(ts.getLeadingCommentRanges(text, node.pos) ?? []),
        ...(ts.getTrailingCommentRanges(text, node.end) ?? []),
      ];
      for (const r of around) ranges.set(r.pos, r.end);
    }
    for (const child of children) visit(child);
  };
  visit(source);
  return [...ranges]
    .sort(([a], [b]) => a - b)
    .map(([pos, end]) => ({ line: source.getLineAndCharacterOfPosition(pos).line + 1, text: text.slice(pos, end) }));
}

/** `file:line` of every comment line that cites an issue or a review (tests included). */
export function issueCitations(files: readonly Source[]): string[] {
  const found: string[] = [];
  for (const { path, text } of files) {
    if (!/\.(ts|js|mjs)$/.test(path)) continue;
    for (const comment of comments(path, text))
      comment.text.split('\n').forEach((line, i) => {
        if (CITES_ISSUE.test(line)) found.push(`${path}:${comment.line + i}`);
      });
  }
  return found;
}

export function runtimeDependencies(root = ROOT): Packages {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
  return { dependencies: Object.keys(pkg.dependencies ?? {}) };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const problems = violations(importEdges(), runtimeDependencies());
  for (const p of problems) console.log(p);
  const files = wordSources();
  const long = longLines(files);
  for (const at of long) console.log(`${at}: longer than ${MAX_LINE} characters`);
  const cited = issueCitations(files);
  for (const at of cited) console.log(`${at}: a comment cites an issue or a review`);
  console.log(problems.length ? `${problems.length} offending import(s)` : 'the house rule holds');
  console.log(`${long.length} line(s) past ${MAX_LINE} characters, ${cited.length} comment line(s) citing an issue`);
  process.exitCode = problems.length || long.length || cited.length ? 1 : 0;
}
