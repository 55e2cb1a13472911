// Any limiter model, never a flaky verdict (issue 12 part 5): `petcert quota`'s engine and `certify` over
// real sockets against the reference server as a sliding log, a sliding window counter and a token bucket
// (correct alternatives, spec/GAPS.md "Limiter model"), ten runs each at once (a loaded machine on purpose),
// with compressed windows: every run passes and names the model; a fault in each model is still caught.
import { describe, expect, it } from 'vitest';
import { listen, type ReferenceOptions } from '../reference/index.ts';
import type { LimiterModel } from '../reference/variants.ts';
import type { Report } from '../report/model.ts';
import { parsePlansFile } from '../spec/plans.ts';
import { runQuota } from './quota.ts';
import { certify } from '../cli/certify.ts';
import { realRunners } from '../cli/certify-runners.ts';

// Small quotas keep the quota probes short; conform's key is on Business (the spec's figures) so its
// requests are never paced.
const plans = parsePlansFile({ windows: { minuteSeconds: 2, daySeconds: 12 }, plans: { free: { perMinute: 4, perDay: 12 }, pro: { perMinute: 6, perDay: 18 } } });
const keys = { pc_free_models_aaaaaaaa: 'free', pc_pro_models_bbbbbbbbb: 'pro' };
const RUNS = 10;

async function quota(options: ReferenceOptions): Promise<Report> {
  const server = await listen({ plans, keys, ...options });
  try {
    return await runQuota({ baseUrl: server.baseUrl, keys: Object.entries(keys).map(([key, plan]) => ({ key, plan })), plans });
  } finally {
    await server.close();
  }
}

const failures = (r: Report) => r.checks.filter((c) => c.outcome === 'fail').map((c) => `${c.id}: ${c.failures[0]?.message}`);
const models = (r: Report) => r.checks.filter((c) => c.id.startsWith('quota.model[')).map((c) => (c.observed as { model: string }).model);

const MODELS: Array<Exclude<LimiterModel, 'fixed'>> = ['sliding-log', 'sliding-counter', 'token-bucket'];

describe.concurrent('a correct limiter of every model passes 10 runs out of 10', () => {
  it.for(MODELS)('%s', { timeout: 240_000 }, async (limiterModel) => {
    const runs = await Promise.all(Array.from({ length: RUNS }, () => quota({ variants: { limiterModel } })));
    expect(runs.map(failures)).toEqual(Array.from({ length: RUNS }, () => []));
    for (const r of runs) expect(r.aborted).toBeUndefined();
    // Never taken for a fixed window, so no fixed-window rule judged it. A sliding log and a token bucket
    // can look alike in whole-second Resets (model.ts); the same rules judge both.
    const told = runs.flatMap(models);
    const alike = limiterModel === 'sliding-counter' ? [limiterModel] : ['sliding-log', 'token-bucket'];
    expect(told.filter((m) => !alike.includes(m))).toEqual([]);
    expect(told.filter((m) => m === limiterModel).length).toBeGreaterThanOrEqual(RUNS);
    console.log(`${limiterModel}: told ${JSON.stringify(Object.fromEntries(alike.map((m) => [m, told.filter((t) => t === m).length])))} over ${RUNS} runs × 2 keys`);
  });
});

describe.concurrent('faults in each model are still caught', () => {
  const cases: Array<[Exclude<LimiterModel, 'fixed'>, string, ReferenceOptions['faults'], string]> = MODELS.flatMap((m) => [
    [m, 'over-admission', { overAdmit: 1 }, 'quota.minute.exact[free]'],
    [m, 'Retry-After missing', { retryAfter: 'missing' }, 'quota.retry-after.present[free]'],
    [m, 'day quota not enforced', { noDayQuota: true }, 'quota.day.exact[free]'],
  ] as const);
  it.for(cases)('%s: %s', { timeout: 240_000 }, async ([limiterModel, , faults, check]) => {
    const r = await quota({ variants: { limiterModel }, faults });
    expect(failures(r).map((f) => f.split(':')[0])).toContain(check);
  });
});

describe.concurrent('certify: conform and quota pass 10 runs out of 10 on every model', () => {
  const conformKey = { plan: 'business', key: 'pc_business_models_cccccc' };
  async function certifyOnce(limiterModel: LimiterModel): Promise<Report> {
    const server = await listen({ plans, keys: { ...keys, [conformKey.key]: conformKey.plan }, variants: { limiterModel } });
    try {
      const quotaKeys = Object.entries(keys).map(([key, plan]) => ({ key, plan }));
      return await certify({ baseUrl: server.baseUrl, production: false, conformKeys: [conformKey], quotaKeys, plans, version: 'test' }, realRunners);
    } finally {
      await server.close();
    }
  }
  it.for(MODELS)('%s', { timeout: 240_000 }, async (limiterModel) => {
    const runs = await Promise.all(Array.from({ length: RUNS }, () => certifyOnce(limiterModel)));
    expect(runs.map(failures)).toEqual(Array.from({ length: RUNS }, () => []));
    for (const r of runs) expect(r.aborted).toBeUndefined();
  });
});
