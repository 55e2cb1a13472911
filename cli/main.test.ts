import { CommanderError } from 'commander';
import { expect, test } from 'vitest';
import { ConfigError, UnreachableError } from '../core/errors.ts';
import { EXIT } from '../report/model.ts';
import { exitCodeFor, INTERNAL_ERROR_EXIT } from './main.ts';

test('an internal error has a code of its own: a crash is never read as a verdict (not even INCOMPLETE)', () => {
  expect(exitCodeFor(new TypeError('a bug'))).toBe(INTERNAL_ERROR_EXIT);
  expect(Object.values(EXIT)).not.toContain(INTERNAL_ERROR_EXIT);
  expect(exitCodeFor(new ConfigError('bad flag'))).toBe(EXIT.usage);
  expect(exitCodeFor(new UnreachableError('no answer'))).toBe(EXIT.stopped);
  expect(exitCodeFor(new CommanderError(1, 'commander.unknownOption', 'unknown option'))).toBe(EXIT.usage);
});
