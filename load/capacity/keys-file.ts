// The key file of `petcert capacity --keys-file FILE` (and KEYS_FILE of the k6 script): one PLAN=KEY
// per line, `#` starts a comment, blank lines are ignored, KEY may be env:NAME. Pure: the caller reads
// the file (Node: fs, k6: open()).
import { ConfigError } from '../../core/errors.ts';
import { normalizePlanName } from '../../spec/plans.ts';
import { splitPlanKey, type PlanKey } from '../shared/keys.ts';

export type { PlanKey } from '../shared/keys.ts';

export function parseKeysFile(text: string, source: string, env: Record<string, string | undefined> = {}): PlanKey[] {
  const keys: PlanKey[] = [];
  const seen = new Set<string>();
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.replace(/#.*$/, '').trim();
    if (line === '') return;
    const where = `${source}:${i + 1}`;
    const split = splitPlanKey(line);
    if (split === undefined) throw new ConfigError('expected PLAN=KEY (or PLAN=env:NAME)', where);
    const plan = normalizePlanName(split.plan);
    let key = split.key;
    const name = /^env:([A-Za-z_][A-Za-z0-9_]*)$/.exec(key)?.[1];
    if (name !== undefined) {
      key = env[name] ?? '';
      if (key === '') throw new ConfigError(`environment variable ${name} is not set or empty`, where);
    }
    // One key twice would get twice its share of the load: over its quota, and a false alarm.
    if (seen.has(key)) throw new ConfigError('this key is already listed on an earlier line', where);
    seen.add(key);
    keys.push({ plan, key });
  });
  if (keys.length === 0) throw new ConfigError('holds no PLAN=KEY line', source);
  return keys;
}

/** The key file text for keys (what `petcert serve --key-pool` writes). */
export function keysFileText(keys: readonly PlanKey[]): string {
  return `# PLAN=KEY, one per line (petcert capacity --keys-file)\n${keys.map((k) => `${k.plan}=${k.key}`).join('\n')}\n`;
}
