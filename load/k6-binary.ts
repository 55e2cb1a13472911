// Where the k6 binary is. petcert runs k6 as a separate program (never linked: k6 is AGPL-3.0), found
// in this order: the K6 environment variable, the pinned builds of `npm run k6:build` in .cache/k6/,
// then PATH. The pinned versions' sources and checksums are tools/k6/<version>/go.{mod,sum}.
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError } from '../core/errors.ts';

/** The k6 versions petcert supports, newest first: the current v2 line and the maintained v1 line. */
export const K6_PINNED_VERSIONS = ['v2.2.0', 'v1.8.1'] as const;
export type K6PinnedVersion = (typeof K6_PINNED_VERSIONS)[number];

const root = fileURLToPath(new URL('..', import.meta.url));
/** Where `npm run k6:build` puts the pinned builds (git-ignored). */
export const K6_CACHE_DIR = join(root, '.cache', 'k6');

/** The cached binary of a pinned version (present or not). */
export function k6CachePath(version: K6PinnedVersion, cacheDir = K6_CACHE_DIR): string {
  return join(cacheDir, version, 'k6');
}

function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function onPath(name: string, pathVariable: string | undefined): string | undefined {
  for (const dir of (pathVariable ?? '').split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, name);
    if (isExecutableFile(candidate)) return candidate;
  }
  return undefined;
}

const HOW_TO_GET_K6 =
  'build the pinned versions with `npm run k6:build` (needs Go), or set K6=/path/to/k6, or put k6 on PATH';

/**
 * The k6 to run: $K6 (a path, or a command name looked up on PATH), else the newest pinned build in
 * .cache/k6, else `k6` on PATH. Throws a ConfigError saying how to get one.
 */
export function findK6(env: Record<string, string | undefined> = process.env, cacheDir = K6_CACHE_DIR): string {
  const given = env.K6;
  if (given !== undefined && given !== '') {
    const found = given.includes('/')
      ? isExecutableFile(resolve(given))
        ? resolve(given)
        : undefined
      : onPath(given, env.PATH);
    if (found === undefined)
      throw new ConfigError(`${given} is not an executable k6; fix K6 or unset it, or ${HOW_TO_GET_K6}`, 'K6');
    return found;
  }
  for (const version of K6_PINNED_VERSIONS) {
    if (isExecutableFile(k6CachePath(version, cacheDir))) return k6CachePath(version, cacheDir);
  }
  const fromPath = onPath('k6', env.PATH);
  if (fromPath !== undefined) return fromPath;
  throw new ConfigError(`k6 not found: ${HOW_TO_GET_K6}`, 'K6');
}

/** The pinned versions built in .cache/k6, newest first (tests run each one). */
export function k6Versions(cacheDir = K6_CACHE_DIR): Array<{ version: K6PinnedVersion; path: string }> {
  return K6_PINNED_VERSIONS.filter((v) => isExecutableFile(k6CachePath(v, cacheDir))).map((version) => ({
    version,
    path: k6CachePath(version, cacheDir),
  }));
}
