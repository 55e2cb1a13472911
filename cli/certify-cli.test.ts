// Usage and configuration errors of `petcert certify` end with exit 2 and a message that names what to
// fix, before any request is sent.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { main } from './main.ts';
import { EXIT_CODES_TEXT } from '../report/model.ts';

const dir = mkdtempSync(join(tmpdir(), 'petcert-certify-cli-'));
const config = join(dir, 'petcert.config.json');
writeFileSync(
  config,
  JSON.stringify({
    targets: { staging: { baseUrl: 'http://127.0.0.1:9/v1', keys: [{ plan: 'free', env: 'PETCERT_TEST_UNSET_KEY' }] } },
  }),
);
const badConfig = join(dir, 'bad.json');
writeFileSync(
  badConfig,
  JSON.stringify({ targets: { staging: { baseUrl: 'http://127.0.0.1:9/api', keys: [{ plan: 'free', env: 'X' }] } } }),
);

async function run(...args: string[]): Promise<{ code: number; err: string }> {
  const errors: string[] = [];
  const spy = vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void errors.push(a.join(' ')));
  const write = vi
    .spyOn(process.stderr, 'write')
    .mockImplementation((chunk: string | Uint8Array) => (errors.push(String(chunk)), true));
  try {
    const code = await main(['node', 'petcert', 'certify', ...args]);
    return { code, err: errors.join('\n') };
  } finally {
    spy.mockRestore();
    write.mockRestore();
  }
}

afterEach(() => {
  process.exitCode = undefined;
});

describe('petcert certify: usage and config errors → exit 2', () => {
  test.for<[string, string[], RegExp]>([
    ['bad --fail-on', ['--fail-on', 'may'], /--fail-on: must be "must" or "should"/],
    ['bad --seed', ['--seed', '-3'], /--seed: must be an integer/],
    [
      '--target without a config file',
      ['--target', 'staging', '--config', join(dir, 'absent.json')],
      /cannot read config file/,
    ],
    ['unknown target', ['--config', config, '--target', 'qa'], /no target named "qa".*known: staging/],
    [
      'a field the config gets wrong',
      ['--config', badConfig],
      /targets\.staging\.baseUrl: must end in the version segment \/v1/,
    ],
    [
      "the key's environment variable is not set",
      ['--config', config],
      /environment variable PETCERT_TEST_UNSET_KEY \(the API key\) is not set or empty: export PETCERT_TEST_UNSET_KEY=/,
    ],
  ])('%s', async ([, args, message]) => {
    const { code, err } = await run(...args);
    expect(code).toBe(2);
    expect(err).toMatch(message);
  });

  test('--help shows examples and exit codes', async () => {
    const out: string[] = [];
    const write = vi
      .spyOn(process.stdout, 'write')
      .mockImplementation((chunk: string | Uint8Array) => (out.push(String(chunk)), true));
    try {
      expect(await main(['node', 'petcert', 'certify', '--help'])).toBe(0);
    } finally {
      write.mockRestore();
    }
    const help = out.join('');
    expect(help).toContain('Examples:');
    expect(help).toContain('petcert certify --target staging');
    expect(help).toContain(EXIT_CODES_TEXT);
    expect(help).toMatch(/4 INCOMPLETE: .* --allow-incomplete makes this 0/s);
    expect(help).toContain('--allow-incomplete');
  });
});
