// The real runners behind `petcert certify`: the conformance suite and the quota probes, each over its
// own undici transport (they create it when no `send` is given).
import { runConform } from '../conformance/run.ts';
import { runQuota } from '../load/quota.ts';
import type { Runners } from './certify.ts';

export const realRunners: Runners = { conform: runConform, quota: runQuota };
