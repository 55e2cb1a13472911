// Key pools for realistic cardinality (`petcert serve --key-pool free=2000,pro=300`): many keys per
// plan, so a capacity run can spread its load as real customers would. Limiter state stays bounded:
// one record per configured key holding only its current minute and day windows (reference/limiter.ts),
// created on a key's first admitted-or-refused request; unknown keys get 401 before the limiter and
// leave no state. So state ≤ the pool size: 10,000 keys → at most 10,000 records, ~220 bytes each
// (measured: ~2.2 MB), never more, however long the server runs.
import { randomBytes } from 'node:crypto';
import { ConfigError } from '../core/errors.ts';
import { resolvePlan, type PlanTable } from '../spec/plans.ts';

/** The most keys one server generates: bounds memory and start-up time. */
export const MAX_POOL_KEYS = 200_000;

/** "free=2000,pro=300" → plan → count (plans resolved against the table). */
export function parseKeyPool(text: string, table: PlanTable, flag = '--key-pool'): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const part of text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const m = /^([A-Za-z0-9_-]+)=(\d{1,7})$/.exec(part);
    if (!m || Number(m[2]) < 1)
      throw new ConfigError(`expected PLAN=COUNT pairs (count ≥ 1), got ${JSON.stringify(part)}`, flag);
    let plan: string;
    try {
      plan = resolvePlan(table, m[1]!).name;
    } catch (error) {
      throw new ConfigError(error instanceof Error ? error.message : String(error), flag);
    }
    counts[plan] = (counts[plan] ?? 0) + Number(m[2]);
  }
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  if (total === 0) throw new ConfigError('is empty', flag);
  if (total > MAX_POOL_KEYS) throw new ConfigError(`${total} keys is more than ${MAX_POOL_KEYS}`, flag);
  return counts;
}

/** key → plan: `pc_<plan>_<n>_<random>`, random so that two servers never share keys. */
export function keyPool(counts: Record<string, number>): Record<string, string> {
  const keys: Record<string, string> = {};
  const salt = randomBytes(6).toString('hex');
  for (const [plan, count] of Object.entries(counts)) {
    for (let n = 0; n < count; n++) keys[`pc_${plan}_${n}_${salt}`] = plan;
  }
  return keys;
}
