import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../core/errors.ts';
import { keysFileText, parseKeysFile } from './keys-file.ts';

describe('parseKeysFile', () => {
  it('reads PLAN=KEY lines, comments, blank lines and env:NAME', () => {
    const text = '# staging keys\nfree=k1\n\n  Pro = k2  # trailing comment\nbusiness=env:BIZ_KEY\n';
    expect(parseKeysFile(text, 'keys.txt', { BIZ_KEY: 'k3' })).toEqual([
      { plan: 'free', key: 'k1' },
      { plan: 'pro', key: 'k2' },
      { plan: 'business', key: 'k3' },
    ]);
  });
  it('keeps "=" inside keys', () => {
    expect(parseKeysFile('free=abc==\n', 'f')).toEqual([{ plan: 'free', key: 'abc==' }]);
  });
  it.for([
    ['free\n', 'keys.txt:1'],
    ['free=k1\nfree=k1\n', 'keys.txt:2'],
    ['free=env:NOPE\n', 'keys.txt:1'],
    ['# nothing\n', 'keys.txt'],
  ])('refuses %j naming %s', ([text, where]) => {
    expect(() => parseKeysFile(text!, 'keys.txt', {})).toThrow(ConfigError);
    expect(() => parseKeysFile(text!, 'keys.txt', {})).toThrow(where!);
  });
  it('round-trips what serve --key-pool writes', () => {
    const keys = [
      { plan: 'free', key: 'a' },
      { plan: 'pro', key: 'b' },
    ];
    expect(parseKeysFile(keysFileText(keys), 'f')).toEqual(keys);
  });
});
