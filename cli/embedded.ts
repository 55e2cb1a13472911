// The target `petcert certify` certifies when nothing is configured: the reference server on a free
// loopback port, with compressed windows so every plan's minute AND day quota is certified in minutes.
// The figures stay the specification's; only the windows shrink. The day probe needs
// ceil(perDay / perMinute) minute windows (100 for Business), so a 1 s "minute"; a 240 s "day" leaves
// room for that count in more than half of each day, so the probe seldom waits for the next one.
// Each plan gets two fresh keys, one for conform and one for the quota probes, so conform's requests
// never eat into the windows the quota probes count.
import { randomBytes } from 'node:crypto';
import { listen, type RunningServer } from '../reference/index.ts';
import { loadPlansFile } from '../spec/plans-file.ts';
import { concretePlans, parsePlansFile, type PlanTable } from '../spec/plans.ts';
import type { ResolvedTarget } from './config-file.ts';

export const EMBEDDED_WINDOWS = { minuteSeconds: 1, daySeconds: 240 } as const;

export function embeddedPlans(plansFile: string | undefined): PlanTable {
  return plansFile === undefined ? parsePlansFile({ windows: EMBEDDED_WINDOWS }, 'embedded windows') : loadPlansFile(plansFile);
}

export interface EmbeddedTarget {
  server: RunningServer;
  target: ResolvedTarget;
}

export async function startEmbedded(plans: PlanTable): Promise<EmbeddedTarget> {
  const quotaKeys = concretePlans(plans).map((p) => ({ plan: p.name, key: `pc_quota_${p.name}_${randomBytes(12).toString('hex')}` }));
  const conformKeys = concretePlans(plans).map((p) => ({ plan: p.name, key: `pc_conform_${p.name}_${randomBytes(12).toString('hex')}` }));
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
