// The probe core runs unchanged inside k6: no Node, undici or k6 import may reach it.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parsePlansFile, resolvePlan } from '../../spec/plans.ts';
import { inProcessTarget, contextOn } from '../../testkit/load/in-process.ts';
import { productFiles } from '../../testkit/load/product-files.ts';
import { runProbes } from './run.ts';

const dir = fileURLToPath(new URL('.', import.meta.url));
/** Every product file of the probe core, its probes' folders and models/ included. */
const sources = () => productFiles(dir);

describe('probe core', () => {
  it('imports no Node, undici or k6 module', () => {
    for (const file of sources()) {
      // Every form: `from '…'`, `from "…"`, a bare `import '…'` and a dynamic `import('…')`.
      const imports = [
        ...readFileSync(`${dir}/${file}`, 'utf8').matchAll(/\b(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g),
      ].map((m) => m[1]!);
      for (const spec of imports) expect(spec, `${file}: ${spec}`).toMatch(/^\.\.?\//);
    }
  });

  it('keeps no state at module level: a run keeps its state in its context and ledgers', () => {
    const files = sources();
    expect(files.length).toBeGreaterThan(30);
    const stateful = /^(?:export )?(?:(?:let|var) |const \w+(?::[^=]+)? = new (?:Weak)?(?:Map|Set)\b)/m;
    for (const file of files) expect(readFileSync(`${dir}/${file}`, 'utf8'), file).not.toMatch(stateful);
  });

  it.for([-3 * 3600_000 - 17, 0, 5 * 3600_000 + 999])(
    'trusts the server clock, not ours (server skewed by %i ms)',
    async (skewMs) => {
      const plans = parsePlansFile({
        windows: { minuteSeconds: 2, daySeconds: 16 },
        plans: { free: { perMinute: 4, perDay: 20 } },
      });
      const t = inProcessTarget({ plans, keys: { pc_free_skew_aaaaaaa: 'free' }, skewMs });
      const ctx = contextOn(t, plans.windows);
      const r = await runProbes(
        ctx,
        [{ key: 'pc_free_skew_aaaaaaa', plan: resolvePlan(plans, 'free') }],
        ['minute', 'day'],
        [],
      );
      expect(r.checks.filter((c) => c.outcome === 'fail').map((c) => c.id)).toEqual([]);
    },
  );
});
