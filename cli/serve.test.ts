import { describe, expect, test } from 'vitest';
import { ConfigError } from '../core/errors.ts';
import { serveConfig, type ServeFlags } from './serve.ts';

const flags = (over: Partial<ServeFlags>): ServeFlags => ({
  host: '127.0.0.1',
  port: '0',
  key: [],
  maxPets: '100',
  ...over,
});

describe('serveConfig', () => {
  test('defaults: no keys given → undefined (the app makes one per plan)', () => {
    const config = serveConfig(flags({}));
    expect(config).toMatchObject({ host: '127.0.0.1', port: 0, keys: undefined, maxPets: 100 });
  });

  test('--key KEY=PLAN, plan names case-insensitive', () => {
    expect(serveConfig(flags({ key: ['a=free', 'b=Pro'] })).keys).toEqual({ a: 'free', b: 'pro' });
  });

  test.for([
    ['port not a number', { port: 'abc' }, '--port'],
    ['port too big', { port: '70000' }, '--port'],
    ['key without plan', { key: ['abc'] }, '--key'],
    ['key with empty plan', { key: ['abc='] }, '--key'],
    ['unknown plan', { key: ['a=gold'] }, '--key: "a=gold": unknown plan "gold"'],
    [
      'custom plan without figures',
      { key: ['a=enterprise'] },
      '--key: "a=enterprise": plan "enterprise" has custom figures',
    ],
    ['key with a space', { key: ['a b=free'] }, '--key'],
    ['duplicate key', { key: ['a=free', 'a=pro'] }, 'twice'],
    ['missing plans file', { plans: '/nonexistent/plans.json' }, 'cannot read'],
    ['max-pets zero', { maxPets: '0' }, '--max-pets'],
    ['empty host', { host: '' }, '--host'],
  ] as [string, Partial<ServeFlags>, string][])('%s → ConfigError', ([, over, text]) => {
    expect(() => serveConfig(flags(over))).toThrow(ConfigError);
    expect(() => serveConfig(flags(over))).toThrow(text);
  });
});
