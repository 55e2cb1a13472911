// The real runners behind `petcert certify`: the conformance suite and the quota probes, each over its
// own undici transport (they create it when no `send` is given).
import { runConform } from '../conformance/run.ts';
import type { Report } from '../report/model.ts';
import type { QuotaRun, Runners } from './certify.ts';

type RunQuota = (options: QuotaRun) => Promise<Report>;

async function quota(options: QuotaRun): Promise<Report> {
  // load/quota.ts lands with the quota issue; resolved at run time until then.
  const path = '../load/quota.ts';
  const mod = (await import(path)) as { runQuota: RunQuota };
  return mod.runQuota(options);
}

export const realRunners: Runners = { conform: runConform, quota };
