// API keys and the plan each one is on. Default: one random key per plan that has figures.
import { randomBytes } from 'node:crypto';
import { ConfigError } from '../core/errors.ts';
import { concretePlans, resolvePlan, type Plan, type PlanTable } from '../spec/plans.ts';

export const KEY_PATTERN = /^[A-Za-z0-9\-._~+/]+=*$/; // RFC 6750 b64token: what a Bearer credential can carry

export function defaultKeys(table: PlanTable): Record<string, string> {
  const keys: Record<string, string> = {};
  for (const plan of concretePlans(table)) keys[`pc_${plan.name}_${randomBytes(12).toString('hex')}`] = plan.name;
  return keys;
}

/** key → resolved plan; throws ConfigError for a malformed key or a plan without figures. */
export function resolveKeys(table: PlanTable, keys: Record<string, string>): Map<string, Plan> {
  const out = new Map<string, Plan>();
  for (const [key, planName] of Object.entries(keys)) {
    if (!KEY_PATTERN.test(key))
      throw new ConfigError(`API key ${JSON.stringify(key)} has characters a Bearer token cannot carry`, 'key');
    out.set(key, resolvePlan(table, planName));
  }
  if (out.size === 0) throw new ConfigError('at least one API key is needed', 'keys');
  return out;
}

/** The figures 401 responses report: the free plan's (or the smallest plan's, if free has none). */
export function anonymousPlan(table: PlanTable): Plan {
  const plans = concretePlans(table);
  const free = plans.find((p) => p.name === 'free');
  const plan = free ?? [...plans].sort((a, b) => a.perMinute - b.perMinute)[0];
  if (!plan) throw new ConfigError('the plan table has no plan with figures', 'plans');
  return plan;
}
