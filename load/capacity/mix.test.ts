import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../core/errors.ts';
import { parsePlansFile, resolvePlan, specPlanTable } from '../../spec/plans.ts';
import { parseMix, parseOps, parseUtilisation, plannedRate } from './mix.ts';
import { operationCuts, operationOf } from './operation-picker.ts';

const spec = specPlanTable();

describe('parseMix', () => {
  it('takes the figures from the plan table, never its own', () => {
    const mix = parseMix('free=2000, Pro=300,business=20', spec);
    expect(mix.map((e) => [e.plan.name, e.customers])).toEqual([
      ['free', 2000],
      ['pro', 300],
      ['business', 20],
    ]);
    expect(mix[0]!.plan).toEqual(resolvePlan(spec, 'free'));
  });
  it('reads Enterprise from a plans file, and refuses it without one', () => {
    const table = parsePlansFile({ plans: { enterprise: { perMinute: 5000, perDay: 2_000_000 } } });
    expect(parseMix('enterprise=3', table)[0]!.plan.perMinute).toBe(5000);
    expect(() => parseMix('enterprise=3', spec)).toThrow(/custom/);
  });
  it.for(['free', 'free=0', 'free=1.5', 'gold=3', 'free=1,free=2', ''])('refuses %j', (text) => {
    expect(() => parseMix(text, spec)).toThrow(ConfigError);
  });
});

describe('planned rate', () => {
  it('is Σ customers × perMinute × utilisation / minute, from the table', () => {
    const mix = parseMix('free=2000,pro=300,business=20', spec);
    const expected =
      ((2000 * resolvePlan(spec, 'free').perMinute +
        300 * resolvePlan(spec, 'pro').perMinute +
        20 * resolvePlan(spec, 'business').perMinute) *
        0.5) /
      spec.windows.minuteSeconds;
    expect(plannedRate(mix, 0.5, spec.windows.minuteSeconds)).toBeCloseTo(expected, 9);
  });
  it('reads utilisation in (0, 1]', () => {
    expect(parseUtilisation(undefined)).toBe(1);
    expect(parseUtilisation('0.5')).toBe(0.5);
    for (const bad of ['0', '1.5', '-1', 'x']) expect(() => parseUtilisation(bad)).toThrow(ConfigError);
  });
});

describe('operation mix', () => {
  it('defaults to list=80,get=15,create=5 and refuses unknown operations', () => {
    expect(parseOps()).toEqual({ list: 80, get: 15, create: 5 });
    expect(() => parseOps('delete=5')).toThrow(ConfigError);
    expect(() => parseOps('list=0')).toThrow(ConfigError);
  });
  it('holds the mix within 1 % over 10,000 iterations, with no shared state', () => {
    const ops = parseOps();
    const counts = { list: 0, get: 0, create: 0 };
    const cuts = operationCuts(ops);
    for (let i = 0; i < 10_000; i++) counts[operationOf(i, cuts)]++;
    expect(counts.list / 10_000).toBeCloseTo(0.8, 2);
    expect(counts.get / 10_000).toBeCloseTo(0.15, 2);
    expect(counts.create / 10_000).toBeCloseTo(0.05, 2);
  });
});
