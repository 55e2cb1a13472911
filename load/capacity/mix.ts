// The customer mix: how many active customers per plan (`free=2000,pro=300`), how hard they use their
// quota at peak (utilisation), and the operation mix. Plan figures always come from the plan table
// (spec/plans.ts: the contract, overridden by a plans file), never from here.
import { ConfigError } from '../../core/errors.ts';
import { resolvePlan, type Plan, type PlanTable } from '../../spec/plans.ts';
export interface MixEntry {
  plan: Plan;
  customers: number;
}

export const OPERATIONS = ['list', 'get', 'create'] as const;
export type Operation = (typeof OPERATIONS)[number];
export type OpsMix = Record<Operation, number>;

/** list=80,get=15,create=5: mostly reads, the replacement of the deprecated get (§4.3) first. */
export const DEFAULT_OPS = 'list=80,get=15,create=5';

/** "name=number,…" → pairs; `what` names the flag in errors. */
function pairs(text: string, what: string): Array<[string, number]> {
  const out: Array<[string, number]> = [];
  for (const part of text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const m = /^([A-Za-z0-9_-]+)\s*=\s*(\d+(?:\.\d+)?)$/.exec(part);
    if (!m) throw new ConfigError(`expected NAME=NUMBER pairs separated by commas, got ${JSON.stringify(part)}`, what);
    out.push([m[1]!.toLowerCase(), Number(m[2])]);
  }
  if (out.length === 0) throw new ConfigError('is empty', what);
  return out;
}

export function parseMix(text: string, plans: PlanTable): MixEntry[] {
  const seen = new Set<string>();
  return pairs(text, '--mix').map(([name, customers]) => {
    if (!Number.isSafeInteger(customers) || customers < 1)
      throw new ConfigError(`customers of ${name} must be a whole number ≥ 1, got ${customers}`, '--mix');
    let plan: Plan;
    try {
      plan = resolvePlan(plans, name);
    } catch (error) {
      throw new ConfigError(error instanceof Error ? error.message.replace(/^plan: /, '') : String(error), '--mix');
    }
    if (seen.has(plan.name)) throw new ConfigError(`plan ${plan.name} given twice`, '--mix');
    seen.add(plan.name);
    return { plan, customers };
  });
}

export function parseOps(text: string = DEFAULT_OPS): OpsMix {
  const ops: OpsMix = { list: 0, get: 0, create: 0 };
  for (const [name, weight] of pairs(text, '--ops')) {
    if (!(OPERATIONS as readonly string[]).includes(name))
      throw new ConfigError(`unknown operation ${JSON.stringify(name)} (known: ${OPERATIONS.join(', ')})`, '--ops');
    ops[name as Operation] = weight;
  }
  if (ops.list + ops.get + ops.create <= 0) throw new ConfigError('needs a positive weight', '--ops');
  return ops;
}

/** Utilisation at peak: the share of its per-minute quota an average customer uses, in (0, 1]. */
export function parseUtilisation(text: string | undefined): number {
  if (text === undefined || text === '') return 1;
  const value = Number(text);
  if (!/^\d*\.?\d+$/.test(text.trim()) || !(value > 0 && value <= 1))
    throw new ConfigError(
      `must be a number in (0, 1] (1 = every customer at its full per-minute rate), got ${JSON.stringify(text)}`,
      '--utilisation',
    );
  return value;
}

/** Requests per second of one plan's customers at peak: customers × perMinute × utilisation / minute. */
export function plannedRateOf(entry: MixEntry, utilisation: number, minuteSeconds: number): number {
  return (entry.customers * entry.plan.perMinute * utilisation) / minuteSeconds;
}

export function plannedRate(mix: readonly MixEntry[], utilisation: number, minuteSeconds: number): number {
  return mix.reduce((sum, e) => sum + plannedRateOf(e, utilisation, minuteSeconds), 0);
}
