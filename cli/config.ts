// petcert.config.json: named targets (staging, production, a vendor's URL) with their keys. Keys are
// named by ENVIRONMENT VARIABLE and never stored in the file, so the file can be committed. Every
// problem is a ConfigError naming the field to fix (exit 2). Pure: cli/config-file.ts reads files.
//
// {
//   "defaultTarget": "staging",
//   "targets": {
//     "staging": {
//       "baseUrl": "https://staging.example.com/v1",
//       "production": false,
//       "keys": [ { "plan": "free", "env": "PETCERT_FREE_KEY" }, { "plan": "pro", "env": "PETCERT_PRO_KEY" } ],
//       "conformKeyEnv": "PETCERT_CONFORM_KEY",   // optional: conform with this key only (default: with every key)
//       "conformKeyPlan": "pro",                   // optional: that key's plan (X-RateLimit-Limit is judged by it)
//       "plansFile": "plans.staging.json",         // optional, relative to this file
//       "budget": 400, "seed": 42,                 // optional
//       "network": { "proxy": "http://proxy.corp:3128", "caFile": "corp-ca.pem",   // optional: how the target
//                    "clientCert": "client.pem", "clientKey": "client.key", "insecure": false } // is reached
//     }
//   }
// }
import { parseBaseUrl } from '../core/base-url.ts';
import { apiKeyFromEnv } from '../core/api-key.ts';
import { ConfigError } from '../core/errors.ts';

export interface KeyRef {
  plan: string;
  env: string;
}

export interface TargetConfig {
  name: string;
  baseUrl: string;
  production: boolean;
  keys: KeyRef[];
  conformKeyEnv?: string;
  conformKeyPlan?: string;
  plansFile?: string;
  budget?: number;
  seed?: number;
  network?: NetworkConfig;
}

/** How the target is reached (paths relative to the config file; the flags of the same names override each). */
export interface NetworkConfig {
  proxy?: string;
  caFile?: string;
  clientCert?: string;
  clientKey?: string;
  insecure?: boolean;
}

export interface PetcertConfig {
  defaultTarget?: string;
  targets: Record<string, TargetConfig>;
}

/** Every field the file may hold, per level (the e2e test of the documented options runs each one). */
export const CONFIG_FIELDS = ['defaultTarget', 'targets'] as const;
export const TARGET_FIELDS = [
  'baseUrl',
  'production',
  'keys',
  'conformKeyEnv',
  'conformKeyPlan',
  'plansFile',
  'budget',
  'seed',
  'network',
] as const;
/** A target's `network`: each is also a flag (--proxy, --ca-file, --client-cert, --client-key, --insecure). */
export const NETWORK_FIELDS = ['proxy', 'caFile', 'clientCert', 'clientKey', 'insecure'] as const;
export const KEY_FIELDS = ['plan', 'env'] as const;

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const TARGET_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;
// "$comment"/"$schema" style fields are notes for people, allowed anywhere.
const isNote = (key: string): boolean => key.startsWith('$');

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function record(value: unknown, field: string, allowed: readonly string[], hint: string): Record<string, unknown> {
  if (!isRecord(value)) throw new ConfigError(`must be an object ${hint}`, field);
  for (const key of Object.keys(value)) {
    if (isNote(key) || allowed.includes(key)) continue;
    if (/key|secret|token/i.test(key))
      throw new ConfigError(
        `unknown field; API keys are never stored in the config: name an environment variable with "env" (allowed: ${allowed.join(', ')})`,
        `${field}.${key}`,
      );
    throw new ConfigError(`unknown field (allowed: ${allowed.join(', ')})`, `${field}.${key}`);
  }
  return value;
}

function string(value: unknown, field: string): string {
  if (typeof value !== 'string' || value.trim() === '')
    throw new ConfigError(`must be a non-empty string, got ${JSON.stringify(value)}`, field);
  return value;
}

function envName(value: unknown, field: string): string {
  const name = string(value, field);
  if (!ENV_NAME.test(name))
    throw new ConfigError(
      `must name an environment variable (letters, digits, _), got ${JSON.stringify(name)}; the key itself goes in that variable, never in this file`,
      field,
    );
  return name;
}

function integer(value: unknown, field: string, min: number): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min)
    throw new ConfigError(`must be an integer ≥ ${min}, got ${JSON.stringify(value)}`, field);
  return value;
}

function parseKeys(value: unknown, field: string): KeyRef[] {
  if (!Array.isArray(value) || value.length === 0)
    throw new ConfigError('must be a non-empty array like [{ "plan": "free", "env": "PETCERT_FREE_KEY" }]', field);
  const plans = new Set<string>();
  return value.map((entry, i) => {
    const where = `${field}[${i}]`;
    const r = record(entry, where, KEY_FIELDS, 'like { "plan": "free", "env": "PETCERT_FREE_KEY" }');
    const plan = string(r.plan, `${where}.plan`).trim().toLowerCase();
    if (plans.has(plan)) throw new ConfigError(`plan "${plan}" is listed twice; one key per plan`, `${where}.plan`);
    plans.add(plan);
    return { plan, env: envName(r.env, `${where}.env`) };
  });
}

function parseTarget(name: string, value: unknown): TargetConfig {
  const field = `targets.${name}`;
  if (!TARGET_NAME.test(name)) throw new ConfigError('target names use letters, digits, ., - and _', field);
  const r = record(value, field, TARGET_FIELDS, 'with baseUrl, production and keys');
  if (r.production !== undefined && typeof r.production !== 'boolean')
    throw new ConfigError(`must be true or false, got ${JSON.stringify(r.production)}`, `${field}.production`);
  const target: TargetConfig = {
    name,
    baseUrl: parseBaseUrl(string(r.baseUrl, `${field}.baseUrl`), `${field}.baseUrl`),
    production: r.production === true,
    keys: parseKeys(r.keys, `${field}.keys`),
  };
  if (r.conformKeyEnv !== undefined) target.conformKeyEnv = envName(r.conformKeyEnv, `${field}.conformKeyEnv`);
  if (r.conformKeyPlan !== undefined) {
    if (target.conformKeyEnv === undefined)
      throw new ConfigError("is the plan of conformKeyEnv's key: give conformKeyEnv too", `${field}.conformKeyPlan`);
    target.conformKeyPlan = string(r.conformKeyPlan, `${field}.conformKeyPlan`).trim().toLowerCase();
  }
  if (r.plansFile !== undefined) target.plansFile = string(r.plansFile, `${field}.plansFile`);
  if (r.budget !== undefined) target.budget = integer(r.budget, `${field}.budget`, 1);
  if (r.seed !== undefined) target.seed = integer(r.seed, `${field}.seed`, 0);
  if (r.network !== undefined) target.network = parseNetwork(r.network, `${field}.network`);
  return target;
}

function parseNetwork(value: unknown, field: string): NetworkConfig {
  const r = record(value, field, NETWORK_FIELDS, 'like { "proxy": "http://proxy.corp:3128", "caFile": "corp-ca.pem" }');
  const out: NetworkConfig = {};
  for (const name of ['proxy', 'caFile', 'clientCert', 'clientKey'] as const)
    if (r[name] !== undefined) out[name] = string(r[name], `${field}.${name}`);
  if (r.insecure !== undefined && typeof r.insecure !== 'boolean')
    throw new ConfigError(`must be true or false, got ${JSON.stringify(r.insecure)}`, `${field}.insecure`);
  if (r.insecure === true) out.insecure = true;
  return out;
}

export function parseConfig(value: unknown, source = 'petcert.config.json'): PetcertConfig {
  try {
    const r = record(value, 'config', CONFIG_FIELDS, 'with "targets"');
    if (!isRecord(r.targets) || Object.keys(r.targets).length === 0)
      throw new ConfigError('must be an object of target name → { baseUrl, production, keys }', 'targets');
    const targets: Record<string, TargetConfig> = {};
    for (const [name, t] of Object.entries(r.targets)) if (!isNote(name)) targets[name] = parseTarget(name, t);
    const config: PetcertConfig = { targets };
    if (r.defaultTarget !== undefined) {
      const name = string(r.defaultTarget, 'defaultTarget');
      if (!targets[name])
        throw new ConfigError(`names no target (known: ${Object.keys(targets).join(', ')})`, 'defaultTarget');
      config.defaultTarget = name;
    }
    return config;
  } catch (error) {
    // Keep `field` clean for callers; the message also names the file.
    if (error instanceof ConfigError) error.message = `${source}: ${error.message}`;
    throw error;
  }
}

/** --target, else defaultTarget, else the only target; otherwise say which names exist. */
export function pickTarget(config: PetcertConfig, name: string | undefined): TargetConfig {
  const names = Object.keys(config.targets);
  const chosen = name ?? config.defaultTarget ?? (names.length === 1 ? names[0] : undefined);
  if (chosen === undefined)
    throw new ConfigError(
      `several targets and no defaultTarget: pick one with --target (${names.join(', ')})`,
      '--target',
    );
  const target = config.targets[chosen];
  if (!target)
    throw new ConfigError(`no target named "${chosen}" in the config (known: ${names.join(', ')})`, '--target');
  return target;
}

/** The key in an environment variable; a missing one names the variable and the field that wants it. */
export function readKey(env: Record<string, string | undefined>, name: string, field: string): string {
  return apiKeyFromEnv(env, name, field, 'the API key');
}
