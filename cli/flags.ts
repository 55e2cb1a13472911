// Parsing of the flags several commands share, so `--fail-on`, integers and keys read the same
// everywhere and their errors name the flag (ConfigError → exit 2).
import { apiKeyFromEnv, checkApiKey } from '../core/api-key.ts';
import { ConfigError } from '../core/errors.ts';
import type { FailOn } from '../report/model.ts';

export type Env = Record<string, string | undefined>;

export function failOnFlag(raw: string): FailOn {
  if (raw !== 'must' && raw !== 'should') throw new ConfigError(`must be "must" or "should", got ${JSON.stringify(raw)}`, '--fail-on');
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
