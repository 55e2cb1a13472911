import { CommanderError } from 'commander';
import { expect, test, vi } from 'vitest';
import { ConfigError, UnreachableError } from '../core/errors.ts';
import { EXIT } from '../report/model.ts';
import { exitCodeFor, INTERNAL_ERROR_EXIT, main } from './main.ts';

test('an internal error has a code of its own: a crash is never read as a verdict (not even INCOMPLETE)', () => {
  expect(exitCodeFor(new TypeError('a bug'))).toBe(INTERNAL_ERROR_EXIT);
  expect(Object.values(EXIT)).not.toContain(INTERNAL_ERROR_EXIT);
  expect(exitCodeFor(new ConfigError('bad flag'))).toBe(EXIT.usage);
  expect(exitCodeFor(new UnreachableError('no answer'))).toBe(EXIT.stopped);
  expect(exitCodeFor(new CommanderError(1, 'commander.unknownOption', 'unknown option'))).toBe(EXIT.usage);
});

test.for(['conform', 'quota', 'certify', 'capacity'])(
  '%s --help names every exit code, interrupted and internal error included',
  async (command) => {
    const out: string[] = [];
    const write = vi
      .spyOn(process.stdout, 'write')
      .mockImplementation((chunk: string | Uint8Array) => (out.push(String(chunk)), true));
    try {
      expect(await main(['node', 'petcert', command, '--help'])).toBe(EXIT.pass);
    } finally {
      write.mockRestore();
    }
    const help = out.join('').replace(/\s+/g, ' ');
    for (const code of [
      '0 pass',
      '1 a',
      '2 usage',
      '3 ',
      '4 INCOMPLETE',
      '130/143 interrupted',
      `${INTERNAL_ERROR_EXIT} an internal error`,
    ]) {
      expect(help).toContain(code);
    }
  },
);
