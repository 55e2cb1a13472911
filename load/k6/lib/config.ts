// Script configuration from __ENV, read at init: BASE_URL (loopback default), KEYS or API_KEY + PLAN,
// PLANS_FILE (read with open() at init — k6 resolves a relative path against the script's folder),
// REPORT_DIR (optional; checked here, at init, so a folder k6 cannot write into stops the run at once).
import { parsePlansFile, resolvePlan, specPlanTable, type Plan, type PlanTable } from '../../../spec/plans.ts';
import { parseKeysEnv } from '../../shared/keys.ts';
import { checkedReportDir } from './report-dir.ts';

export interface ScriptConfig {
  baseUrl: string;
  plans: PlanTable;
  keys: Array<{ plan: Plan; key: string }>;
  secrets: string[];
  /** Absolute, existing at init; undefined: the summary goes to stdout only. */
  reportDir: string | undefined;
}

/** What every petcert script reads the same way: the target, the plans, where a summary file may go. */
export function readTarget(): Pick<ScriptConfig, 'baseUrl' | 'plans' | 'reportDir'> {
  const baseUrl = (__ENV.BASE_URL || 'http://127.0.0.1:8080/v1').replace(/\/+$/, '');
  const plans = __ENV.PLANS_FILE
    ? parsePlansFile(JSON.parse(open(__ENV.PLANS_FILE)), __ENV.PLANS_FILE)
    : specPlanTable();
  return { baseUrl, plans, reportDir: checkedReportDir(__ENV.REPORT_DIR) };
}

export function readConfig(): ScriptConfig {
  const target = readTarget();
  const keys = parseKeysEnv({ KEYS: __ENV.KEYS, API_KEY: __ENV.API_KEY, PLAN: __ENV.PLAN }).map((k) => ({
    key: k.key,
    plan: resolvePlan(target.plans, k.plan),
  }));
  return { ...target, keys, secrets: keys.map((k) => k.key) };
}
