// The pinned k6 versions: one Go module per supported version under tools/k6, consistent with
// load/k6-binary.ts, each requiring its k6 at that version with the checksum in go.sum.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { K6_PINNED_VERSIONS } from '../load/k6-binary.ts';
import { K6_TOOLS_DIR, pinnedPackage } from './build-k6-bin.ts';

describe('tools/k6', () => {
  it('holds exactly the pinned versions (v2 and v1 lines)', () => {
    expect(
      readdirSync(K6_TOOLS_DIR)
        .filter((f) => /^v\d/.test(f))
        .sort(),
    ).toEqual([...K6_PINNED_VERSIONS].sort());
    expect(K6_PINNED_VERSIONS).toEqual(['v2.2.0', 'v1.8.1']);
  });

  it.for([...K6_PINNED_VERSIONS])(
    '%s: tools.go, go.mod and go.sum agree on the k6 module and its checksum',
    (version) => {
      const pkg = pinnedPackage(version);
      expect(pkg).toBe(version.startsWith('v2.') ? 'go.k6.io/k6/v2' : 'go.k6.io/k6');
      const sum = readFileSync(join(K6_TOOLS_DIR, version, 'go.sum'), 'utf8');
      expect(sum).toMatch(new RegExp(`^${pkg.replace(/\./g, '\\.')} ${version.replace(/\./g, '\\.')} h1:\\S+=$`, 'm'));
      expect(sum).toMatch(
        new RegExp(`^${pkg.replace(/\./g, '\\.')} ${version.replace(/\./g, '\\.')}/go\\.mod h1:\\S+=$`, 'm'),
      );
      expect(readFileSync(join(K6_TOOLS_DIR, version, 'tools.go'), 'utf8')).toMatch(/^\/\/go:build tools$/m);
    },
  );
});
