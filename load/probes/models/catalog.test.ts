// The catalog is the one vocabulary of limiter models: every name the reference server, testkit's shapes
// and a declared model use maps onto one entry; every told label leads back to its entry; and
// spec/GAPS.md keeps one row per entry, in the catalog's order.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LIMITER_MODELS } from '../../../reference/variants.ts';
import { DECLARABLE_MODELS } from '../../../spec/plans.ts';
import type { MeterKind } from '../../../testkit/load/limiter-shapes.ts';
import { CATALOG, entryOf, fromAlias, MODEL_NAMES, traitsOf, type Traits } from './catalog.ts';

const SHAPES = [
  'first-use',
  'aligned',
  'token-bucket',
  'gcra',
  'moving-window',
  'sliding-counter',
] as const satisfies readonly MeterKind[];
// Every MeterKind is listed: a new shape fails to compile here until it is.
const everyShape: [Exclude<MeterKind, (typeof SHAPES)[number]>] extends [never] ? true : false = true;

describe('one vocabulary', () => {
  it('every testkit shape, the two-limiter header mode, every reference model and every declared model map onto the catalog', () => {
    expect(everyShape).toBe(true);
    const mapped = {
      shape: [...SHAPES, 'chain'].map((s) => [s, fromAlias('shape', s)]),
      reference: LIMITER_MODELS.map((m) => [m, fromAlias('reference', m)]),
      declared: DECLARABLE_MODELS.map((m) => [m, fromAlias('declared', m)]),
    };
    for (const pairs of Object.values(mapped)) for (const [name, model] of pairs) expect(model, name).toBeDefined();
    expect(Object.fromEntries(mapped.reference)).toEqual({
      fixed: 'fixed-aligned',
      'first-request': 'fixed-first-request',
      'sliding-log': 'sliding-log',
      'sliding-counter': 'sliding-counter',
      'token-bucket': 'token-bucket',
    });
    expect(fromAlias('shape', 'chain')).toBe('two-limiters');
    expect(fromAlias('shape', 'moving-window')).toBe('sliding-log');
  });

  it('no alias names two entries, and every alias is one a vocabulary has', () => {
    const known = { shape: [...SHAPES, 'chain'], reference: [...LIMITER_MODELS], declared: [...DECLARABLE_MODELS] };
    for (const vocabulary of ['shape', 'reference', 'declared'] as const) {
      const used = Object.values(CATALOG).flatMap((e) => e.aliases[vocabulary] ?? []);
      expect(new Set(used).size, vocabulary).toBe(used.length);
      for (const a of used) expect(known[vocabulary] as string[], `${vocabulary} ${a}`).toContain(a);
    }
  });

  it('each entry is keyed by its name, in MODEL_NAMES order, and every known model has a recogniser', () => {
    expect(Object.keys(CATALOG)).toEqual([...MODEL_NAMES]);
    for (const [name, e] of Object.entries(CATALOG)) {
      expect(e.name).toBe(name);
      for (const r of e.recognisers) expect(typeof r).toBe('function');
      if (name !== 'unknown') expect(e.recognisers.length, name).toBeGreaterThan(0);
    }
  });

  it('what an entry is told as leads to traits that agree with its own (the rules cannot tell them apart and need not)', () => {
    const ruleTraits = (t: Traits) => ({ ...t, reset: undefined, refusal: undefined });
    for (const e of Object.values(CATALOG)) {
      const told = e.toldAs[0];
      const start = e.traits.start;
      expect(ruleTraits(traitsOf({ model: told, ...(start ? { start } : {}) })), e.name).toEqual(ruleTraits(e.traits));
    }
    expect(entryOf(undefined).name).toBe('unknown');
    expect(entryOf({ model: 'fixed', start: 'first-request' }).name).toBe('fixed-first-request');
  });
});

describe('spec/GAPS.md', () => {
  const gaps = readFileSync(new URL('../../../spec/GAPS.md', import.meta.url), 'utf8');
  const rows = gaps.split('\n').filter((l) => l.startsWith('| Limiter model `'));

  it("keeps one row per catalog model, in the catalog's order, with its title and what it is told as", () => {
    expect(rows.map((r) => /^\| Limiter model `([^`]+)`/.exec(r)![1])).toEqual([...MODEL_NAMES]);
    for (const [i, name] of MODEL_NAMES.entries()) {
      const cells = rows[i]!.split(' | ');
      expect(cells[0], name).toBe(`| Limiter model \`${name}\`: ${CATALOG[name].title}.`);
      for (const told of new Set(CATALOG[name].toldAs))
        expect(cells[2], `${name} told ${told}`).toContain(`\`${told}\``);
    }
  });
});
