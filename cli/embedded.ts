// The target `petcert certify` certifies when nothing is configured: the reference server on a free
// loopback port, with compressed windows so every plan's minute AND day quota is certified in minutes.
// The figures stay the specification's; only the windows shrink. The day probe needs
// ceil(perDay / perMinute) minute windows (100 for Business), so a 1 s "minute" and a 240 s "day". The
// windows start when the server starts (the reference server's origin option; the plan table carries it,
// so the day probe plans by it too): every day count starts early in a day and no probe waits for a boundary.
// Each plan gets two fresh keys, one for conform and one for the quota probes, so conform's requests
// never eat into the windows the quota probes count.
import { randomBytes } from 'node:crypto';
import { listen, type RunningServer } from '../reference/index.ts';
import { loadPlansFile } from '../spec/plans-file.ts';
import { concretePlans, parsePlansFile, type PlanTable } from '../spec/plans.ts';
import type { ResolvedTarget } from './config-file.ts';

export const EMBEDDED_WINDOWS = { minuteSeconds: 1, daySeconds: 240 } as const;

export function embeddedPlans(plansFile: string | undefined): PlanTable {
  return plansFile === undefined
    ? parsePlansFile({ windows: EMBEDDED_WINDOWS }, 'embedded windows')
    : loadPlansFile(plansFile);
}

export interface EmbeddedTarget {
  server: RunningServer;
  target: ResolvedTarget;
}

/** The plan table with windows starting now, on a whole second (so Reset, in Unix seconds, is exact). */
export function startingNow(plans: PlanTable, nowMs = Date.now()): PlanTable {
  return { ...plans, windows: { ...plans.windows, originMs: Math.floor(nowMs / 1000) * 1000 } };
}

export async function startEmbedded(table: PlanTable): Promise<EmbeddedTarget> {
  const plans = startingNow(table);
  const quotaKeys = concretePlans(plans).map((p) => ({
    plan: p.name,
    key: `pc_quota_${p.name}_${randomBytes(12).toString('hex')}`,
  }));
  const conformKeys = concretePlans(plans).map((p) => ({
    plan: p.name,
    key: `pc_conform_${p.name}_${randomBytes(12).toString('hex')}`,
  }));
  const keys = Object.fromEntries([...quotaKeys, ...conformKeys].map((k) => [k.key, k.plan]));
  const server = await listen({ host: '127.0.0.1', port: 0, plans, keys });
  return {
    server,
    target: {
      name: 'embedded reference server',
      baseUrl: server.baseUrl,
      production: false,
      plans,
      quotaKeys,
      conformKeys,
      secrets: [...quotaKeys, ...conformKeys].map((k) => k.key),
    },
  };
}
