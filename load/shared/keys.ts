// Keys for the k6 scripts from their environment: KEYS="free=k1,pro=k2" or API_KEY (+ PLAN, default free).
import { ConfigError } from '../../core/errors.ts';

export interface PlanKey {
  plan: string;
  key: string;
}

/** `PLAN=KEY` split at its first `=`, both sides non-empty; undefined when the text is not of that form. */
export function splitPlanKey(text: string): PlanKey | undefined {
  const at = text.indexOf('=');
  return at <= 0 || at === text.length - 1
    ? undefined
    : { plan: text.slice(0, at).trim(), key: text.slice(at + 1).trim() };
}

export function parseKeysEnv(env: { KEYS?: string; API_KEY?: string; PLAN?: string }): PlanKey[] {
  if (env.KEYS) {
    return env.KEYS.split(',').map((pair) => {
      const split = splitPlanKey(pair);
      if (split === undefined) throw new ConfigError('expected PLAN=KEY pairs separated by commas', 'KEYS');
      return split;
    });
  }
  if (env.API_KEY) return [{ plan: env.PLAN ?? 'free', key: env.API_KEY }];
  throw new ConfigError('set KEYS="plan=key,..." or API_KEY (and PLAN)', 'KEYS');
}
