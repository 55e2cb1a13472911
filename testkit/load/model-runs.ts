// The reference server as each correct limiter model of spec/GAPS.md ("Limiter model"), run whole by
// `petcert quota`'s engine and by certify over real sockets, with compressed windows. The e2e test
// (load/limiter-models.e2e.test.ts) runs each once; `npm run bench:models` (bench/model-stability.ts)
// runs each many times at once, on a machine loaded on purpose, and counts the verdicts.
import { certify } from '../../cli/certify.ts';
import { realRunners } from '../../cli/certify-runners.ts';
import { runQuota } from '../../load/quota.ts';
import { CATALOG, fromAlias } from '../../load/probes/models/catalog.ts';
import { listen, type ReferenceOptions } from '../../reference/index.ts';
import type { LimiterModel } from '../../reference/variants.ts';
import type { Report } from '../../report/model.ts';
import { parsePlansFile, type DeclaredModel, type PlanTable } from '../../spec/plans.ts';

// Small quotas keep the quota probes short; conform's key is on Business (the spec's figures) so its
// requests are never paced.
const plans = parsePlansFile({
  windows: { minuteSeconds: 2, daySeconds: 12 },
  plans: { free: { perMinute: 4, perDay: 12 }, pro: { perMinute: 6, perDay: 18 } },
});
const keys = { pc_free_models_aaaaaaaa: 'free', pc_pro_models_bbbbbbbbb: 'pro' };
const conformKey = { plan: 'business', key: 'pc_business_models_cccccc' };
const quotaKeys = Object.entries(keys).map(([key, plan]) => ({ key, plan }));

export type CorrectModel = Exclude<LimiterModel, 'fixed'>;
export const MODELS: CorrectModel[] = ['sliding-log', 'sliding-counter', 'token-bucket'];

/** What the vendor of each model declares: a bucket its rates (`limiterModel`), the others nothing (the window reading). */
export const declaredOf = (m: CorrectModel): DeclaredModel | undefined =>
  CATALOG[fromAlias('reference', m)!].aliases.declared as DeclaredModel | undefined;

/** The plans as the run reads them: `declared` in the plans file's `limiterModel`. */
const plansDeclaring = (declared: DeclaredModel | null | undefined): PlanTable =>
  declared ? { ...plans, limiterModel: declared } : plans;

/** `petcert quota`'s engine on the reference server as `limiterModel`, with `faults` if given, the model declared as its vendor would. */
/** `declared` null: nothing declared (the window reading), whatever the model. */
export async function quotaOnModel(
  limiterModel: CorrectModel,
  faults?: ReferenceOptions['faults'],
  declared: DeclaredModel | null | undefined = declaredOf(limiterModel),
): Promise<Report> {
  const server = await listen({ plans, keys, variants: { limiterModel }, ...(faults ? { faults } : {}) });
  try {
    return await runQuota({ baseUrl: server.baseUrl, keys: quotaKeys, plans: plansDeclaring(declared) });
  } finally {
    await server.close();
  }
}

/** certify (conform on a Business key, then quota) on the reference server as `limiterModel`. */
export async function certifyOnModel(limiterModel: CorrectModel): Promise<Report> {
  const server = await listen({
    plans,
    keys: { ...keys, [conformKey.key]: conformKey.plan },
    variants: { limiterModel },
  });
  try {
    return await certify(
      {
        baseUrl: server.baseUrl,
        production: false,
        conformKeys: [conformKey],
        quotaKeys,
        plans: plansDeclaring(declaredOf(limiterModel)),
        version: 'test',
      },
      realRunners,
    );
  } finally {
    await server.close();
  }
}

export const failures = (r: Report): string[] =>
  r.checks.filter((c) => c.outcome === 'fail').map((c) => `${c.id}: ${c.failures[0]?.message}`);

/** The models the run told, one per key (certify's quota checks are named quota/quota.model[…]). */
export const modelsTold = (r: Report): string[] =>
  r.checks.filter((c) => /^(quota\/)?quota\.model\[/.test(c.id)).map((c) => (c.observed as { model: string }).model);

/** What a model may be told (the catalog's `toldAs`): a sliding log and a token bucket can look alike in whole-second Resets. */
export const alikeModels = (m: CorrectModel): string[] => [...CATALOG[fromAlias('reference', m)!].toldAs];

/** Why a run of a correct model is not what it must be (a failure, a stop, a model it is not), or undefined. */
export function notAsExpected(limiterModel: CorrectModel, r: Report): string | undefined {
  if (failures(r).length > 0) return `failed: ${failures(r).join('; ')}`;
  if (r.aborted) return `stopped: ${r.aborted.code}`;
  const wrong = modelsTold(r).filter((m) => !alikeModels(limiterModel).includes(m));
  return wrong.length > 0 ? `told ${wrong.join(', ')}` : undefined;
}
