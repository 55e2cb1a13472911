import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { fixtureReport } from '../testkit/report/fixtures.ts';
import { writeRunDirs } from './report-dirs.ts';

test('one rule for every command: <root>/<command>-<timestamp>/ per run, <root>/latest/ the newest', () => {
  const root = mkdtempSync(join(tmpdir(), 'petcert-dirs-'));
  const at = new Date('2030-01-02T03:04:05.678Z');
  for (const kind of ['conform', 'quota', 'certify', 'capacity'] as const)
    writeRunDirs(root, fixtureReport({ kind }), [], 'must', at);
  const again = writeRunDirs(root, fixtureReport({ kind: 'quota' }), [], 'must', at);
  expect(readdirSync(root).sort()).toEqual([
    'capacity-2030-01-02T03-04-05Z',
    'certify-2030-01-02T03-04-05Z',
    'conform-2030-01-02T03-04-05Z',
    'latest',
    'quota-2030-01-02T03-04-05Z',
    'quota-2030-01-02T03-04-05Z-2',
  ]);
  expect(again.runDir).toBe(join(root, 'quota-2030-01-02T03-04-05Z-2'));
  expect(JSON.parse(readFileSync(join(root, 'latest', 'report.json'), 'utf8')).kind).toBe('quota');
  for (const f of ['report.json', 'junit.xml', 'report.html']) expect(existsSync(join(again.runDir, f))).toBe(true);
});
