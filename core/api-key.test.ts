import { expect, test } from 'vitest';
import { apiKeyFromEnv, checkApiKey } from './api-key.ts';

test('a key is visible ASCII without spaces; anything else names the field', () => {
  expect(checkApiKey('abc-123._~+/=', '--api-key')).toBe('abc-123._~+/=');
  for (const bad of ['', 'a b', 'tab\there', 'line\n', 'ключ', '\u007f'])
    expect(() => checkApiKey(bad, '--api-key')).toThrow(/--api-key|Bearer/);
});

test('a key from the environment is trimmed (a trailing newline is not part of any key), then checked', () => {
  expect(apiKeyFromEnv({ K: ' secret\n' }, 'K', 'f')).toBe('secret');
  expect(() => apiKeyFromEnv({}, 'K', 'f')).toThrow(/K .*not set/);
  expect(() => apiKeyFromEnv({ K: '  ' }, 'K', 'f')).toThrow(/K .*not set/);
  expect(() => apiKeyFromEnv({ K: 'a b' }, 'K', 'f')).toThrow(/Bearer/);
});
