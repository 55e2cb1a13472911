// `npm run k6:build`: builds every pinned k6 (tools/k6/<version>/: go.mod + go.sum + tools.go) from
// source with the Go toolchain into .cache/k6/<version>/k6, and prints where each one is. A build whose
// pins are unchanged (stamp of go.mod, go.sum, tools.go) and whose binary answers `k6 version` with its
// version is kept: then this is a no-op. No prebuilt binary is downloaded; Go fetches the pinned modules
// (checked against go.sum) from its module proxy. k6 is AGPL-3.0: petcert runs it, never links it.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { k6CachePath, K6_PINNED_VERSIONS, type K6PinnedVersion } from '../load/k6-binary.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
export const K6_TOOLS_DIR = join(root, 'tools', 'k6');
const PIN_FILES = ['go.mod', 'go.sum', 'tools.go'];

/** The Go package a pin builds: the one tools.go imports (go.k6.io/k6/v2 or go.k6.io/k6). */
export function pinnedPackage(version: K6PinnedVersion): string {
  const source = readFileSync(join(K6_TOOLS_DIR, version, 'tools.go'), 'utf8');
  const pkg = /^import _ "(go\.k6\.io\/k6(?:\/v\d+)?)"$/m.exec(source)?.[1];
  if (pkg === undefined) throw new Error(`tools/k6/${version}/tools.go: no import _ "go.k6.io/k6…"`);
  const required = new RegExp(`^require ${pkg.replace(/\./g, '\\.')} ${version.replace(/\./g, '\\.')}$`, 'm');
  if (!required.test(readFileSync(join(K6_TOOLS_DIR, version, 'go.mod'), 'utf8')))
    throw new Error(`tools/k6/${version}/go.mod does not require ${pkg} ${version}`);
  return pkg;
}

function pinStamp(version: K6PinnedVersion): string {
  const hash = createHash('sha256');
  for (const file of PIN_FILES) hash.update(`${file}\0`).update(readFileSync(join(K6_TOOLS_DIR, version, file)));
  return hash.digest('hex');
}

const stampPath = (version: K6PinnedVersion) => join(k6CachePath(version), '..', 'pins.sha256');

/** `k6 version` of a binary, or undefined when it does not run. */
export function k6VersionOf(binary: string): string | undefined {
  const run = spawnSync(binary, ['version'], { encoding: 'utf8', timeout: 30_000 });
  return run.status === 0 ? run.stdout.trim() : undefined;
}

function upToDate(version: K6PinnedVersion): boolean {
  const binary = k6CachePath(version);
  if (!existsSync(binary) || !existsSync(stampPath(version))) return false;
  if (readFileSync(stampPath(version), 'utf8').trim() !== pinStamp(version)) return false;
  return new RegExp(`\\b${version.replace(/\./g, '\\.')}\\b`).test(k6VersionOf(binary) ?? '');
}

function goVersion(): string | undefined {
  const run = spawnSync('go', ['version'], { encoding: 'utf8' });
  return run.status === 0 ? run.stdout.trim() : undefined;
}

/** Builds one pinned version (into a temporary name, renamed into place when it runs). Returns seconds. */
function build(version: K6PinnedVersion): number {
  const pkg = pinnedPackage(version);
  const binary = k6CachePath(version);
  const partial = `${binary}.partial`;
  mkdirSync(join(binary, '..'), { recursive: true });
  rmSync(partial, { force: true });
  const started = Date.now();
  console.log(`k6 ${version}: go build ${pkg} (a few minutes the first time) …`);
  const run = spawnSync('go', ['build', '-trimpath', '-o', partial, pkg], {
    cwd: join(K6_TOOLS_DIR, version),
    stdio: 'inherit',
    // -mod=readonly: go.sum is the truth; local toolchain only (never a downloaded one); static binary.
    env: { ...process.env, GOFLAGS: '-mod=readonly -buildvcs=false', GOTOOLCHAIN: 'local', CGO_ENABLED: '0' },
  });
  if (run.status !== 0) throw new Error(`k6 ${version}: go build ${pkg} failed (exit ${run.status ?? run.signal})`);
  const reported = k6VersionOf(partial);
  if (reported === undefined || !reported.includes(version))
    throw new Error(`k6 ${version}: the build answers \`k6 version\` with ${JSON.stringify(reported)}`);
  renameSync(partial, binary);
  writeFileSync(stampPath(version), `${pinStamp(version)}\n`);
  return (Date.now() - started) / 1000;
}

export function buildPinnedK6(): Array<{ version: K6PinnedVersion; path: string; builtSeconds?: number }> {
  const missing = K6_PINNED_VERSIONS.filter((v) => !upToDate(v));
  if (missing.length > 0 && goVersion() === undefined) {
    throw new Error(
      `go not found: building k6 ${missing.join(', ')} needs Go ≥ 1.25 (https://go.dev/doc/install); or bring your own k6 with K6=/path/to/k6 or on PATH`,
    );
  }
  return K6_PINNED_VERSIONS.map((version) => {
    const builtSeconds = missing.includes(version) ? build(version) : undefined;
    return { version, path: k6CachePath(version), builtSeconds };
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    for (const k of buildPinnedK6()) {
      const how = k.builtSeconds === undefined ? 'present' : `built in ${k.builtSeconds.toFixed(0)} s`;
      console.log(`k6 ${k.version}: ${k.path} (${how})`);
    }
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exitCode = 1;
  }
}
