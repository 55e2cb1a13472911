// Parsing of the flags several commands share, so `--fail-on`, integers and keys read the same
// everywhere and their errors name the flag (ConfigError → exit 2).
import { apiKeyFromEnv, checkApiKey } from '../core/api-key.ts';
import { ConfigError } from '../core/errors.ts';
import type { FailOn } from '../report/model.ts';
import { DECLARABLE_MODELS, declaredModel, type DeclaredModel, type PlanTable } from '../spec/plans.ts';

export type Env = Record<string, string | undefined>;

export function failOnFlag(raw: string): FailOn {
  if (raw !== 'must' && raw !== 'should')
    throw new ConfigError(`must be "must" or "should", got ${JSON.stringify(raw)}`, '--fail-on');
  return raw;
}

/** A decimal integer ≥ min, or undefined when the flag was not given. */
export function integerFlag(raw: string | undefined, flag: string, min: number): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^-?\d+$/.test(raw) || !Number.isSafeInteger(Number(raw)) || Number(raw) < min) {
    throw new ConfigError(`must be an integer ≥ ${min}, got ${JSON.stringify(raw)}`, flag);
  }
  return Number(raw);
}

/**
 * An API key given on the command line, or `env:NAME` to read it from the environment (keeps keys
 * out of shell history and `ps`). `what` says whose key it is in the error.
 */
export function keyFlag(raw: string, flag: string, env: Env = process.env, what = 'the key'): string {
  const name = /^env:([A-Za-z_][A-Za-z0-9_]*)$/.exec(raw)?.[1];
  return name === undefined ? checkApiKey(raw, flag, what) : apiKeyFromEnv(env, name, flag, what);
}

/** --limiter-model, checked before anything runs. */
export const limiterModelFlag = (raw: string | undefined): DeclaredModel | undefined =>
  raw === undefined ? undefined : declaredModel(raw, '--limiter-model');

/** The flag overrides the plans file's `limiterModel`; neither given, the window reading applies. */
export const withLimiterModel = (table: PlanTable, declared: DeclaredModel | undefined): PlanTable =>
  declared === undefined ? table : { ...table, limiterModel: declared };

export const LIMITER_MODEL_HELP =
  `the limiter model the vendor's plans declare: ${DECLARABLE_MODELS.join(' | ')} (a bucket of capacity N refilled at N per window, ` +
  "judged as one); default (and plans file without limiterModel): the specification's window reading, at most N admitted in any window's" +
  ' length. Other models cannot be declared';
