import { describe, expect, it } from 'vitest';
import { ConfigError } from '../core/errors.ts';
import { parsePlansFile } from '../spec/plans.ts';
import { failOnFlag, integerFlag, keyFlag, limiterModelFlag, withLimiterModel } from './flags.ts';

describe('shared flags', () => {
  it('--fail-on takes must or should only', () => {
    expect(failOnFlag('must')).toBe('must');
    expect(failOnFlag('should')).toBe('should');
    expect(() => failOnFlag('MUST')).toThrow(/--fail-on: must be "must" or "should"/);
  });

  it.for([
    ['12', 1, 12],
    ['-5', -10, -5],
    [undefined, 1, undefined],
  ] as const)('integerFlag(%j, min %d) = %j', ([raw, min, expected]) => {
    expect(integerFlag(raw, '--n', min)).toBe(expected);
  });

  it.for(['0', '1.5', '1e3', 'ten', '', '99999999999999999999'])('integerFlag rejects %j naming the flag', (raw) => {
    expect(() => integerFlag(raw, '--budget', 1)).toThrow(ConfigError);
    expect(() => integerFlag(raw, '--budget', 1)).toThrow(/^--budget: must be an integer ≥ 1/);
  });

  it('reads env:NAME keys from the environment and says what to export when unset', () => {
    expect(keyFlag('plain-key', '--api-key', {})).toBe('plain-key');
    expect(keyFlag('env:MY_KEY', '--api-key', { MY_KEY: 'secret-value' })).toBe('secret-value');
    expect(() => keyFlag('env:MY_KEY', '--api-key', {})).toThrow(
      /--api-key: environment variable MY_KEY \(the key\) is not set or empty: export MY_KEY=/,
    );
    expect(() => keyFlag('env:MY_KEY', '--api-key', { MY_KEY: '' })).toThrow(ConfigError);
  });
});

describe('--limiter-model', () => {
  it('declares a bucket over the plans file, and refuses a model that cannot be declared', () => {
    const file = parsePlansFile({ limiterModel: 'gcra' });
    expect(withLimiterModel(file, limiterModelFlag('token-bucket')).limiterModel).toBe('token-bucket');
    expect(withLimiterModel(file, limiterModelFlag(undefined)).limiterModel).toBe('gcra');
    expect(withLimiterModel(parsePlansFile({}), limiterModelFlag(undefined)).limiterModel).toBeUndefined();
    expect(() => limiterModelFlag('sliding-log')).toThrow(/must be one of token-bucket, gcra/);
  });
});
