// Any limiter model: `certify` and `petcert quota`'s engine over real sockets against the reference
// server as a sliding log, a sliding window counter and a token bucket (correct alternatives, spec/GAPS.md
// "Limiter model"), with compressed windows: each certify run passes and tells a model the evidence allows;
// a bucket nobody declared fails the window reading. That a fault in each model is still caught is proven by
// recorded journals (testkit/journals/recordings.ts MODEL_FAULTS), re-judged offline. One live run each:
// that a verdict never flips is counted by `npm run bench:models -- --runs 10` (ten runs of each at once, a
// loaded machine on purpose), which also counts how often the model itself is told.
import { describe, expect, it } from 'vitest';
import { alikeModels, certifyOnModel, failures, MODELS, modelsTold, quotaOnModel } from '../testkit/load/model-runs.ts';

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

describe.concurrent('certify: conform and quota pass on every model, each told as a model the evidence allows', () => {
  it.for(MODELS)('%s', { timeout: 240_000 }, async (limiterModel) => {
    const r = await certifyOnModel(limiterModel);
    expect(failures(r)).toEqual([]);
    expect(r.aborted).toBeUndefined();
    // Never taken for a fixed window, so no fixed-window rule judged it.
    expect(modelsTold(r).filter((m) => !alikeModels(limiterModel).includes(m))).toEqual([]);
    expect(modelsTold(r)).toHaveLength(2);
  });
});
