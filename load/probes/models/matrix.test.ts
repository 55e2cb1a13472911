// Every catalog model against every rule that asks the model: what kind of outcome the rule can reach
// (judged, not applicable, unjudged with the reason). The rules call these same functions (models/rules.ts,
// models/allowance.ts), so a trait changed in the catalog shows here as a changed row.
import { describe, expect, it } from 'vitest';
import type { Verdict } from '../../../report/check.ts';
import { allowance } from './allowance.ts';
import { CATALOG, MODEL_NAMES, type ModelName } from './catalog.ts';
import type { ModelVerdict } from './minute-count.ts';
import { refillCounts } from '../reading.ts';
import { dayPath, fixedWindowRule, remainingSetRule } from './rules.ts';

type Kind = 'judged' | 'not-applicable' | 'unjudged';
const kindOf = (v: Verdict | undefined): Kind =>
  v === undefined ? 'judged' : v.kind === 'not-applicable' ? 'not-applicable' : 'unjudged';

/** The verdict the probes give when they tell this model (its first told label, with its start). */
const toldOf = (name: ModelName): ModelVerdict => {
  const e = CATALOG[name];
  return { model: e.toldAs[0], ...(e.traits.start ? { start: e.traits.start } : {}), why: `told ${name}` };
};

/**
 * model → [fixed-window rules, burst Remaining set, the day probe's path, what it may admit over half a window
 * beyond 60 per window, whether that refill counts within one window under the window reading].
 */
const MATRIX: Record<ModelName, [Kind, Kind, ReturnType<typeof dayPath>, number, boolean]> = {
  'fixed-aligned': ['judged', 'judged', 'fixed', 0, false],
  'fixed-first-request': ['judged', 'judged', 'fixed', 0, false],
  fixed: ['judged', 'judged', 'fixed', 0, false],
  'sliding-log': ['not-applicable', 'judged', 'not-fixed', 30, false],
  'sliding-counter': ['not-applicable', 'not-applicable', 'not-fixed', 30, true],
  'token-bucket': ['not-applicable', 'not-applicable', 'not-fixed', 30, false],
  gcra: ['not-applicable', 'not-applicable', 'not-fixed', 30, false],
  'two-limiters': ['unjudged', 'judged', 'own-evidence', 30, false],
  unknown: ['unjudged', 'judged', 'own-evidence', 30, false],
};

describe('model × rule', () => {
  it.for(MODEL_NAMES)('%s', (name) => {
    const v = toldOf(name);
    expect([
      kindOf(fixedWindowRule(v)),
      kindOf(remainingSetRule(v)),
      dayPath(v),
      allowance(v.model, 60, 60_000, 30_000),
      refillCounts(undefined, v.model, 60_000, 30_000),
    ]).toEqual(MATRIX[name]);
  });

  it('unknown is one path: a fixed-window rule is unjudged with why and what would tell the model', () => {
    for (const v of [undefined, toldOf('unknown'), { ...toldOf('unknown'), fix: 'longer windows' }]) {
      const got = fixedWindowRule(v);
      expect(got?.kind).toBe('unjudged');
      if (got?.kind !== 'unjudged') continue;
      expect(got.reason).toMatch(/^a fixed-window rule, and /);
      expect(got.fix).toBe(v?.fix ?? got.fix);
      expect(got.fix?.length).toBeGreaterThan(0);
    }
  });
});
