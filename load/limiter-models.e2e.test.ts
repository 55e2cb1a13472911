// Any limiter model: `petcert quota`'s engine and `certify` over real sockets against the reference
// server as a sliding log, a sliding window counter and a token bucket (correct alternatives, spec/GAPS.md
// "Limiter model"), with compressed windows: each run passes and tells a model the evidence allows; a
// fault in each model is still caught. One live run each: that a verdict never flips is counted by
// `npm run bench:models -- --runs 10` (ten runs of each at once, a loaded machine on purpose), which
// also counts how often the model itself is told.
import { describe, expect, it } from 'vitest';
import type { ReferenceOptions } from '../reference/index.ts';
import {
  alikeModels,
  certifyOnModel,
  failures,
  MODELS,
  modelsTold,
  quotaOnModel,
  type CorrectModel,
} from '../testkit/load/model-runs.ts';

describe.concurrent('a correct limiter of every model passes', () => {
  it.for(MODELS)('%s', { timeout: 240_000 }, async (limiterModel) => {
    const r = await quotaOnModel(limiterModel);
    expect(failures(r)).toEqual([]);
    expect(r.aborted).toBeUndefined();
    // Never taken for a fixed window, so no fixed-window rule judged it.
    expect(modelsTold(r).filter((m) => !alikeModels(limiterModel).includes(m))).toEqual([]);
    expect(modelsTold(r)).toHaveLength(2);
  });
});

describe.concurrent('a token bucket nobody declared', () => {
  it(
    'fails under the window reading, and report.json counts the windows over the figure',
    { timeout: 240_000 },
    async () => {
      const r = await quotaOnModel('token-bucket', undefined, null);
      expect(r.reading).toMatchObject({ model: 'window', declared: false });
      const over = failures(r).filter((f) => /^quota\.(minute|burst|day)\.exact\[/.test(f));
      expect(over).not.toEqual([]);
      for (const f of over) expect(f).toMatch(/window reading/);
      expect(r.overAdmitted).not.toEqual([]);
    },
  );
});

/**
 * The checks that catch one more admitted per window. A declared token bucket's count is allowed what it
 * refills over the count's span (spec/GAPS.md "Limiter model"): on a loaded machine the count takes long
 * enough for that to cover the extra one, and the burst, sent at once, catches it instead.
 */
const overAdmissionCaughtBy = (m: CorrectModel): string[] =>
  m === 'token-bucket' ? ['quota.minute.exact[free]', 'quota.burst.exact[free]'] : ['quota.minute.exact[free]'];

/** A model, the fault, the reference server's faults, the checks any of which catches it. */
type FaultCase = [CorrectModel, string, ReferenceOptions['faults'], string[]];

describe.concurrent('faults in each model are still caught', () => {
  const cases = MODELS.flatMap((m): FaultCase[] => [
    [m, 'over-admission', { overAdmit: 1 }, overAdmissionCaughtBy(m)],
    [m, 'Retry-After missing', { retryAfter: 'missing' }, ['quota.retry-after.present[free]']],
    [m, 'day quota not enforced', { noDayQuota: true }, ['quota.day.exact[free]']],
  ]);
  // The fault is the server's for every key: caught on any key's check of the rule (under load the free key's
  // day was once left unjudged with its reason while pro's failed).
  const ruleOf = (id: string): string => id.replace(/\[[^\]]*\]$/, '');
  it.for(cases)('%s: %s', { timeout: 240_000 }, async ([limiterModel, , faults, checks]) => {
    const r = await quotaOnModel(limiterModel, faults);
    const failed = failures(r).map((f) => f.split(':')[0]!);
    expect(
      failed.filter((id) => checks.map(ruleOf).includes(ruleOf(id))),
      failed.join(', '),
    ).not.toEqual([]);
  });
});

describe.concurrent('certify: conform and quota pass on every model', () => {
  it.for(MODELS)('%s', { timeout: 240_000 }, async (limiterModel) => {
    const r = await certifyOnModel(limiterModel);
    expect(failures(r)).toEqual([]);
    expect(r.aborted).toBeUndefined();
  });
});
