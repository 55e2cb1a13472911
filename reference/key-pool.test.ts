import { describe, expect, it } from 'vitest';
import { ConfigError } from '../core/errors.ts';
import { parsePlansFile, resolvePlan } from '../spec/plans.ts';
import { createApp } from './app.ts';
import { keyPool, MAX_POOL_KEYS, parseKeyPool } from './key-pool.ts';
import { createLimiter } from './limiter.ts';
import { resolveVariants } from './variants.ts';

const table = parsePlansFile({ windows: { minuteSeconds: 1, daySeconds: 10 } });

describe('key pools', () => {
  it('reads PLAN=COUNT pairs against the plan table', () => {
    expect(parseKeyPool('free=2000, Pro=300,free=1', table)).toEqual({ free: 2001, pro: 300 });
  });
  it.for(['free', 'free=0', 'free=x', 'nosuch=3', 'enterprise=2', `free=${MAX_POOL_KEYS + 1}`])(
    'refuses %j with a ConfigError',
    (text) => {
      expect(() => parseKeyPool(text, table)).toThrow(ConfigError);
    },
  );
  it('makes distinct keys per plan, and another pool never shares one', () => {
    const a = keyPool({ free: 500, pro: 20 });
    const b = keyPool({ free: 500 });
    expect(Object.values(a).filter((p) => p === 'free')).toHaveLength(500);
    expect(Object.keys(a).filter((k) => k in b)).toEqual([]);
  });
  it('an app serves a pool of 12,000 keys, each limited on its own', async () => {
    const keys = keyPool({ free: 11_000, business: 1_000 });
    const app = createApp({ plans: table, keys, now: () => 1_000_000 });
    const some = Object.keys(keys).filter((_, i) => i % 1000 === 0);
    for (const key of some)
      expect(
        (await app.handle({ method: 'GET', path: '/v1/pets', headers: { authorization: `Bearer ${key}` }, body: '' }))
          .status,
      ).toBe(200);
  });
});

describe('limiter state with 12,000 keys', () => {
  it('holds one record per key over many windows: state ≤ the pool size', () => {
    const limiter = createLimiter(table.windows, {}, resolveVariants());
    const free = resolvePlan(table, 'free');
    const keys = Object.keys(keyPool({ free: 12_000 }));
    for (let window = 0; window < 5; window++) for (const key of keys) limiter.take(key, free, window * 1000 + 10);
    expect(limiter.size()).toBe(12_000);
  });
});
