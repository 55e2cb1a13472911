import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ConfigError } from '../core/errors.ts';
import { parseConfig, pickTarget } from './config.ts';
import { loadConfig, resolveTarget, targetFromFlags } from './config-file.ts';

const good = () => ({
  defaultTarget: 'staging',
  targets: {
    staging: {
      baseUrl: 'https://staging.example.com/v1',
      production: false,
      keys: [
        { plan: 'free', env: 'PETCERT_FREE_KEY' },
        { plan: 'Pro', env: 'PETCERT_PRO_KEY' },
      ],
      budget: 300,
      seed: 7,
    },
    production: {
      $comment: 'guarded',
      baseUrl: 'https://api.example.com/prefix/v1/',
      production: true,
      keys: [{ plan: 'business', env: 'PETCERT_BIZ_KEY' }],
      conformKeyEnv: 'PETCERT_CONFORM_KEY',
    },
  },
});

type Mutate = (c: ReturnType<typeof good>) => unknown;
const set =
  (path: string, value: unknown): Mutate =>
  (c) => {
    const parts = path.split('.');
    let node: Record<string, unknown> = c as unknown as Record<string, unknown>;
    for (const p of parts.slice(0, -1)) node = node[p] as Record<string, unknown>;
    node[parts.at(-1)!] = value;
    return c;
  };

describe('parseConfig rejects bad fields, naming them', () => {
  test.for<[string, Mutate, string, RegExp]>([
    ['not an object', () => [], 'config', /must be an object/],
    ['no targets', () => ({}), 'targets', /target name/],
    ['unknown top-level field', set('extra', 1), 'config.extra', /unknown field/],
    ['baseUrl missing', set('targets.staging.baseUrl', undefined), 'targets.staging.baseUrl', /non-empty string/],
    ['baseUrl not a URL', set('targets.staging.baseUrl', 'staging'), 'targets.staging.baseUrl', /not a URL/],
    ['baseUrl ftp', set('targets.staging.baseUrl', 'ftp://x/v1'), 'targets.staging.baseUrl', /http or https/],
    ['baseUrl without /v1', set('targets.staging.baseUrl', 'https://x.example/api'), 'targets.staging.baseUrl', /\/v1/],
    [
      'baseUrl with credentials',
      set('targets.staging.baseUrl', 'https://u:p@x.example/v1'),
      'targets.staging.baseUrl',
      /credentials/,
    ],
    ['production not boolean', set('targets.staging.production', 'yes'), 'targets.staging.production', /true or false/],
    ['keys empty', set('targets.staging.keys', []), 'targets.staging.keys', /non-empty array/],
    [
      'key without env',
      set('targets.staging.keys', [{ plan: 'free' }]),
      'targets.staging.keys[0].env',
      /non-empty string/,
    ],
    [
      'a key stored in the file',
      set('targets.staging.keys', [{ plan: 'free', key: 'sk_live_123' }]),
      'targets.staging.keys[0].key',
      /never stored/,
    ],
    [
      'env not a variable name',
      set('targets.staging.keys', [{ plan: 'free', env: 'sk-live 123' }]),
      'targets.staging.keys[0].env',
      /environment variable/,
    ],
    [
      'plan twice',
      set('targets.staging.keys', [
        { plan: 'free', env: 'A' },
        { plan: 'FREE', env: 'B' },
      ]),
      'targets.staging.keys[1].plan',
      /listed twice/,
    ],
    ['apiKey on the target', set('targets.staging.apiKey', 'x'), 'targets.staging.apiKey', /never stored/],
    ['budget zero', set('targets.staging.budget', 0), 'targets.staging.budget', /integer ≥ 1/],
    ['seed negative', set('targets.staging.seed', -1), 'targets.staging.seed', /integer ≥ 0/],
    ['plansFile empty', set('targets.staging.plansFile', ''), 'targets.staging.plansFile', /non-empty/],
    ['defaultTarget unknown', set('defaultTarget', 'qa'), 'defaultTarget', /known: staging, production/],
    [
      'bad target name',
      set('targets.st aging', { baseUrl: 'https://x/v1', keys: [{ plan: 'free', env: 'A' }] }),
      'targets.st aging',
      /target names/,
    ],
  ])('%s', ([, mutate, field, message]) => {
    let caught: unknown;
    try {
      parseConfig(mutate(good()), 'cfg.json');
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    expect((caught as ConfigError).field).toBe(field);
    expect((caught as ConfigError).message).toMatch(message);
    expect((caught as ConfigError).message.startsWith(`cfg.json: ${field}: `)).toBe(true);
  });

  test('a good config parses, normalising plans and base URLs', () => {
    const config = parseConfig(good());
    expect(config.targets.staging).toMatchObject({
      production: false,
      budget: 300,
      seed: 7,
      keys: [{ plan: 'free' }, { plan: 'pro' }],
    });
    expect(config.targets.production!.baseUrl).toBe('https://api.example.com/prefix/v1');
    expect(config.targets.production!.production).toBe(true);
  });
});

describe('pickTarget', () => {
  const config = parseConfig(good());
  test('--target, then defaultTarget', () => {
    expect(pickTarget(config, 'production').name).toBe('production');
    expect(pickTarget(config, undefined).name).toBe('staging');
  });
  test('an unknown target lists the known ones', () => {
    expect(() => pickTarget(config, 'qa')).toThrow(/no target named "qa".*known: staging, production/);
  });
  test('several targets and no default asks for --target', () => {
    const { defaultTarget: _, ...rest } = good();
    expect(() => pickTarget(parseConfig(rest), undefined)).toThrow(/pick one with --target \(staging, production\)/);
  });
});

describe('resolveTarget and the config file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'petcert-config-'));
  const path = join(dir, 'petcert.config.json');
  const config = good();
  (config.targets.staging as Record<string, unknown>).plansFile = 'plans.json';
  writeFileSync(path, JSON.stringify(config));
  writeFileSync(join(dir, 'plans.json'), JSON.stringify({ windows: { minuteSeconds: 2, daySeconds: 40 } }));
  const env = {
    PETCERT_FREE_KEY: 'free-key-123',
    PETCERT_PRO_KEY: 'pro-key-456',
    PETCERT_BIZ_KEY: 'biz',
    PETCERT_CONFORM_KEY: 'conform-key',
  };

  test('keys come from the environment; the plans file is relative to the config', () => {
    const target = targetFromFlags({ target: 'staging' }, env, dir)!;
    expect(target.quotaKeys).toEqual([
      { plan: 'free', key: 'free-key-123' },
      { plan: 'pro', key: 'pro-key-456' },
    ]);
    expect(target.conformKeys).toEqual(target.quotaKeys);
    expect(target.plans.windows).toEqual({ minuteSeconds: 2, daySeconds: 40 });
    expect(target.secrets).toEqual(['free-key-123', 'pro-key-456']);
  });

  test('a conform key, when configured, is the only one conform uses', () => {
    const target = targetFromFlags({ target: 'production' }, env, dir)!;
    expect(target.production).toBe(true);
    // Not one of the target's keys: its plan is unknown (Limit not judged), never a made-up plan "conform".
    expect(target.conformKeys).toEqual([{ key: 'conform-key', label: 'PETCERT_CONFORM_KEY' }]);
  });

  test("conformKeyPlan names the conform key's plan; alone, or naming an unknown plan, it is an error naming the field", () => {
    const loaded = loadConfig(path)!;
    const production = { ...loaded.config.targets.production!, conformKeyPlan: 'pro' };
    expect(resolveTarget(production, path, env).conformKeys).toEqual([{ plan: 'pro', key: 'conform-key' }]);
    expect(() => resolveTarget({ ...production, conformKeyPlan: 'gold' }, path, env)).toThrow(
      /targets\.production\.conformKeyPlan: unknown plan "gold"/,
    );
    const alone = {
      targets: { t: { baseUrl: 'http://127.0.0.1:1/v1', keys: [{ plan: 'free', env: 'X' }], conformKeyPlan: 'pro' } },
    };
    expect(() => parseConfig(alone)).toThrow(
      /targets\.t\.conformKeyPlan: is the plan of conformKeyEnv's key: give conformKeyEnv too/,
    );
  });

  test("a conform key that is also one of the keys carries that key's plan", () => {
    const loaded = loadConfig(path)!;
    const staging = { ...loaded.config.targets.staging!, conformKeyEnv: 'PETCERT_PRO_KEY' };
    expect(resolveTarget(staging, path, env).conformKeys).toEqual([{ plan: 'pro', key: 'pro-key-456' }]);
  });

  test('a missing environment variable is named, with the field that wants it', () => {
    const { PETCERT_PRO_KEY: _, ...partial } = env;
    expect(() => targetFromFlags({ target: 'staging' }, partial, dir)).toThrow(
      /targets\.staging\.keys\[1\]\.env: environment variable PETCERT_PRO_KEY \(the API key\) is not set or empty/,
    );
  });

  test('a plan the plans table does not know is named', () => {
    const loaded = loadConfig(path)!;
    const target = { ...loaded.config.targets.staging!, keys: [{ plan: 'gold', env: 'PETCERT_FREE_KEY' }] };
    expect(() => resolveTarget(target, path, env)).toThrow(/targets\.staging\.keys\[0\]\.plan: unknown plan "gold"/);
  });

  test('no config: null without --target, an error with it; --config must exist', () => {
    const empty = mkdtempSync(join(tmpdir(), 'petcert-noconfig-'));
    expect(targetFromFlags({}, env, empty)).toBeNull();
    expect(() => targetFromFlags({ target: 'staging' }, env, empty)).toThrow(/no petcert.config.json/);
    expect(() => targetFromFlags({ config: 'missing.json' }, env, empty)).toThrow(/cannot read config file/);
  });

  test('invalid JSON names the file', () => {
    writeFileSync(join(dir, 'broken.json'), '{ "targets": ');
    expect(() => loadConfig('broken.json', dir)).toThrow(/broken\.json is not valid JSON/);
  });
});
