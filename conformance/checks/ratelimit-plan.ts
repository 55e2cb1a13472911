// §8.1/§8.2 against the key's plan: X-RateLimit-Limit is "the request limit currently applicable", so
// it is one of the plan's two figures (per minute, per day). Judged only when the run knows the plan
// (`--plan`, `--key PLAN=KEY`, or certify's keys); the figures come from spec/plans.ts or the plans file.
import { readRateLimit } from '../../spec/ratelimit.ts';
import { usesValidKey } from '../context.ts';
import { judgesValues } from './ratelimit.ts';
import { fail, type ResponseCheck } from './types.ts';

export const NO_PLAN =
  'no plan given (--plan NAME or --key PLAN=KEY): X-RateLimit-Limit values were not judged against a plan';

export const limitOfPlan: ResponseCheck = {
  kind: 'response',
  id: 'ratelimit.limit-of-plan',
  title: "X-RateLimit-Limit is one of the key's plan figures (its per-minute or per-day quota)",
  level: 'MUST',
  specRef: '§8.1, §8.2',
  // GAPS.md: the values on a 401 are OBSERVE (an unknown key has no plan); only answers to the key count.
  applies: (ex, ctx) => ctx.plan !== undefined && usesValidKey(ex.request, ctx.apiKey) && judgesValues(ex),
  judge(ex, ctx) {
    const r = readRateLimit(ex.response.headers);
    const plan = ctx.plan!;
    if (!r.ok || r.value.limit === plan.perMinute || r.value.limit === plan.perDay) return undefined;
    return fail(
      `X-RateLimit-Limit ${r.value.limit} is neither the ${plan.name} plan's ${plan.perMinute} per minute nor its ${plan.perDay} per day`,
      ex,
      {
        expected: [plan.perMinute, plan.perDay],
        received: r.value.limit,
      },
    );
  },
};
