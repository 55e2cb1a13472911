// Node side of petcert.config.json: find and read it, and turn the chosen target into what the runners
// need (keys read from the environment, the plans file loaded relative to the config file).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { ConfigError, errorMessage } from '../core/errors.ts';
import { loadPlansFile } from '../spec/plans-file.ts';
import { resolvePlan, type PlanTable } from '../spec/plans.ts';
import {
  parseConfig,
  pickTarget,
  readKey,
  type NetworkConfig,
  type PetcertConfig,
  type TargetConfig,
} from './config.ts';

export const DEFAULT_CONFIG_FILE = 'petcert.config.json';

export interface LoadedConfig {
  config: PetcertConfig;
  path: string;
}

/** --config FILE must exist; without it, ./petcert.config.json is used when present, else null. */
export function loadConfig(path: string | undefined, cwd = process.cwd()): LoadedConfig | null {
  const file = resolve(cwd, path ?? DEFAULT_CONFIG_FILE);
  if (path === undefined && !existsSync(file)) return null;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError(
      `cannot read config file ${file}: ${errorMessage(error)} (see docs/certify-your-implementation.md for the format)`,
      '--config',
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`${file} is not valid JSON: ${errorMessage(error)}`, '--config');
  }
  return { config: parseConfig(value, file), path: file };
}

export interface KeyedPlan {
  plan: string;
  key: string;
}

/**
 * A key conform runs with. Its plan is known for a quota key; a `conformKeyEnv` key has one only when it
 * is also one of the target's keys (same variable): otherwise X-RateLimit-Limit is not judged, saying so.
 */
export interface ConformKey {
  key: string;
  plan?: string;
  /** How the run's check ids name it, conform[LABEL]/… (default: its plan). */
  label?: string;
}

export interface ResolvedTarget {
  name: string;
  baseUrl: string;
  production: boolean;
  plans: PlanTable;
  /** Keys whose quotas are probed, one per plan. */
  quotaKeys: KeyedPlan[];
  /** Keys conform runs with: the conform key, or every quota key. */
  conformKeys: ConformKey[];
  budget?: number;
  seed?: number;
  /** Every key, for redaction. */
  secrets: string[];
  /** The target's `network` field and where it was written (its paths are relative to the file). */
  network?: { network: NetworkConfig; configPath: string; field: string };
}

export function resolveTarget(
  target: TargetConfig,
  configPath: string,
  env: Record<string, string | undefined> = process.env,
): ResolvedTarget {
  const field = `targets.${target.name}`;
  const plans = loadPlansFile(
    target.plansFile === undefined ? undefined : resolve(dirname(configPath), target.plansFile),
  );
  const quotaKeys = target.keys.map((k, i) => {
    checkPlan(plans, k.plan, `${field}.keys[${i}].plan`);
    return { plan: k.plan, key: readKey(env, k.env, `${field}.keys[${i}].env`) };
  });
  const conformKeys = conformKeysOf(target, quotaKeys, plans, env);
  const resolved: ResolvedTarget = {
    name: target.name,
    baseUrl: target.baseUrl,
    production: target.production,
    plans,
    quotaKeys,
    conformKeys,
    secrets: [...new Set([...quotaKeys, ...conformKeys].map((k) => k.key))],
  };
  if (target.budget !== undefined) resolved.budget = target.budget;
  if (target.seed !== undefined) resolved.seed = target.seed;
  if (target.network !== undefined)
    resolved.network = { network: target.network, configPath, field: `${field}.network` };
  return resolved;
}

/**
 * Every quota key, or the one `conformKeyEnv` names: its plan is `conformKeyPlan`, else that of the same
 * variable in `keys`; with neither, X-RateLimit-Limit is not judged (the report says so).
 */
function conformKeysOf(
  target: TargetConfig,
  quotaKeys: KeyedPlan[],
  plans: PlanTable,
  env: Record<string, string | undefined>,
): ConformKey[] {
  const name = target.conformKeyEnv;
  if (name === undefined) return quotaKeys;
  const key = readKey(env, name, `targets.${target.name}.conformKeyEnv`);
  const plan = target.conformKeyPlan ?? target.keys.find((k) => k.env === name)?.plan;
  if (plan === undefined) return [{ key, label: name }];
  checkPlan(plans, plan, `targets.${target.name}.conformKeyPlan`);
  return [{ key, plan }];
}

/** A plan the plans table knows, or a ConfigError naming the field. */
function checkPlan(plans: PlanTable, plan: string, field: string): void {
  try {
    resolvePlan(plans, plan);
  } catch (error) {
    const raw =
      error instanceof ConfigError && error.field ? error.message.slice(error.field.length + 2) : errorMessage(error);
    throw new ConfigError(raw, field);
  }
}

/** The target `petcert certify --config/--target` names, or null when there is no configuration at all. */
export function targetFromFlags(
  flags: { config?: string; target?: string },
  env = process.env,
  cwd = process.cwd(),
): ResolvedTarget | null {
  const loaded = loadConfig(flags.config, cwd);
  if (!loaded) {
    if (flags.target !== undefined)
      throw new ConfigError(
        `no ${DEFAULT_CONFIG_FILE} in ${cwd}: create one (see docs/certify-your-implementation.md) or pass --config FILE`,
        '--target',
      );
    return null;
  }
  return resolveTarget(pickTarget(loaded.config, flags.target), loaded.path, env);
}
