import { describe, expect, it } from 'vitest';
import { ConfigError } from '../core/errors.ts';
import { concretePlans, parsePlansFile, resolvePlan, specPlanTable } from './plans.ts';

describe('limiterModel', () => {
  it('is read from the top level, absent by default, one of the declarable models', () => {
    expect(parsePlansFile({}).limiterModel).toBeUndefined();
    expect(parsePlansFile({ limiterModel: 'token-bucket' }).limiterModel).toBe('token-bucket');
    expect(parsePlansFile({ limiterModel: 'gcra', plans: { free: { perMinute: 3 } } }).limiterModel).toBe('gcra');
    expect(() => parsePlansFile({ limiterModel: 'leaky' })).toThrow(/must be one of token-bucket, gcra/);
  });
});

describe('plan table', () => {
  it('carries §8.1 figures', () => {
    const table = specPlanTable();
    expect(resolvePlan(table, 'Free')).toEqual({ name: 'free', perMinute: 60, perDay: 1000 });
    expect(resolvePlan(table, 'pro')).toEqual({ name: 'pro', perMinute: 300, perDay: 10000 });
    expect(resolvePlan(table, 'business')).toEqual({ name: 'business', perMinute: 1000, perDay: 100000 });
    expect(table.windows).toEqual({ minuteSeconds: 60, daySeconds: 86400 });
    expect(() => resolvePlan(table, 'enterprise')).toThrow(/custom figures/);
    expect(concretePlans(table).map((p) => p.name)).toEqual(['free', 'pro', 'business']);
  });

  it('merges a plans file over the specification', () => {
    const table = parsePlansFile({
      windows: { minuteSeconds: 2, daySeconds: 40 },
      plans: {
        free: { perMinute: 5 },
        Enterprise: { perMinute: 5000, perDay: 900000 },
        gold: { perMinute: 7, perDay: 70 },
      },
    });
    expect(table.windows).toEqual({ minuteSeconds: 2, daySeconds: 40 });
    expect(resolvePlan(table, 'free')).toEqual({ name: 'free', perMinute: 5, perDay: 1000 });
    expect(resolvePlan(table, 'enterprise').perDay).toBe(900000);
    expect(resolvePlan(table, 'gold').perMinute).toBe(7);
    expect(parsePlansFile({}).windows.daySeconds).toBe(86400);
  });

  it.for([
    [[], /JSON object/],
    [{ windowz: {} }, 'plans.json: windowz: unknown field'],
    [{ plans: { free: { perMinute: 3 }, Free: { perMinute: 4 } } }, /plans.Free: plan "free" given twice/],
    [{ windows: { minuteSeconds: 0 } }, /minuteSeconds: must be a positive integer/],
    [{ windows: { minuteSeconds: 1.5 } }, /positive integer/],
    [{ windows: { minuteSeconds: 60, daySeconds: 30 } }, /shorter/],
    [{ windows: { minuteSeconds: 7, daySeconds: 40 } }, /multiple/],
    [{ plans: { free: { perMinute: '60' } } }, /plans.free.perMinute: must be a positive integer/],
    [{ plans: { free: { perMinut: 60 } } }, /plans.free.perMinut: unknown field/],
    [{ plans: { gold: { perMinute: 6 } } }, /plans.gold.perDay: is required/],
    [{ plans: { 'bad name': { perMinute: 6, perDay: 7 } } }, /plan names/],
  ] as const)('rejects %j with a message naming the field', ([value, message]) => {
    expect(() => parsePlansFile(value, 'plans.json')).toThrow(ConfigError);
    expect(() => parsePlansFile(value, 'plans.json')).toThrow(message);
  });
});
