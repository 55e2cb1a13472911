// Keys for the k6 scripts from their environment: KEYS="free=k1,pro=k2" or API_KEY (+ PLAN, default free).
import { ConfigError } from '../../core/errors.ts';

export interface PlanKey {
  plan: string;
  key: string;
}

export function parseKeysEnv(env: { KEYS?: string; API_KEY?: string; PLAN?: string }): PlanKey[] {
  if (env.KEYS) {
    return env.KEYS.split(',').map((pair) => {
      const at = pair.indexOf('=');
      if (at <= 0 || at === pair.length - 1) throw new ConfigError('expected PLAN=KEY pairs separated by commas', 'KEYS');
      return { plan: pair.slice(0, at).trim(), key: pair.slice(at + 1).trim() };
    });
  }
  if (env.API_KEY) return [{ plan: env.PLAN ?? 'free', key: env.API_KEY }];
  throw new ConfigError('set KEYS="plan=key,..." or API_KEY (and PLAN)', 'KEYS');
}
