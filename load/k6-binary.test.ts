// Finding k6: $K6 first (a path or a command on PATH), then the pinned builds, then PATH; a clear error otherwise.
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../core/errors.ts';
import { findK6, k6CachePath, k6Versions, K6_CACHE_DIR } from './k6-binary.ts';

const dir = mkdtempSync(join(tmpdir(), 'petcert-k6-binary-'));
function fakeK6(sub: string, executable = true): string {
  mkdirSync(join(dir, sub), { recursive: true });
  const file = join(dir, sub, 'k6');
  writeFileSync(file, '#!/bin/sh\necho k6 v0.0.0\n');
  chmodSync(file, executable ? 0o755 : 0o644);
  return file;
}
const emptyCache = join(dir, 'empty-cache');
const cache = join(dir, 'cache');
const v1 = fakeK6('cache/v1.8.1');
const mine = fakeK6('mine');
const onPath = fakeK6('bin');
const notExecutable = fakeK6('plain', false);

describe('findK6', () => {
  it('takes $K6 first, as a path or as a command looked up on PATH, before the cache and PATH', () => {
    expect(findK6({ K6: mine, PATH: join(dir, 'bin') }, cache)).toBe(mine);
    expect(findK6({ K6: 'k6', PATH: join(dir, 'mine') }, cache)).toBe(mine);
  });

  it('refuses a $K6 that is not an executable file, naming the variable and npm run k6:build', () => {
    for (const K6 of [notExecutable, join(dir, 'absent', 'k6'), dir, 'no-such-k6']) {
      expect(() => findK6({ K6, PATH: join(dir, 'bin') }, cache)).toThrow(ConfigError);
      expect(() => findK6({ K6, PATH: join(dir, 'bin') }, cache)).toThrow(/^K6: .*npm run k6:build/);
    }
  });

  it('then the newest pinned build in the cache, before PATH', () => {
    expect(findK6({ PATH: join(dir, 'bin') }, cache)).toBe(v1);
    const v2 = fakeK6('cache/v2.2.0');
    expect(findK6({ PATH: join(dir, 'bin') }, cache)).toBe(v2);
  });

  it('then k6 on PATH, skipping folders without an executable k6', () => {
    expect(findK6({ PATH: [join(dir, 'nothing'), join(dir, 'plain'), join(dir, 'bin')].join(':') }, emptyCache)).toBe(
      onPath,
    );
  });

  it('without any k6, says how to get one', () => {
    expect(() => findK6({ PATH: join(dir, 'nothing') }, emptyCache)).toThrow(
      /^K6: k6 not found: build the pinned versions with `npm run k6:build`/,
    );
  });
});

describe('k6Versions', () => {
  it('lists the pinned versions built in the cache, newest first', () => {
    fakeK6('cache/v2.2.0');
    fakeK6('cache/v9.9.9');
    expect(k6Versions(cache)).toEqual([
      { version: 'v2.2.0', path: join(cache, 'v2.2.0', 'k6') },
      { version: 'v1.8.1', path: v1 },
    ]);
    expect(k6Versions(emptyCache)).toEqual([]);
    expect(k6CachePath('v2.2.0')).toBe(join(K6_CACHE_DIR, 'v2.2.0', 'k6'));
  });
});
