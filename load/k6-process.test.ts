// The temporary folder runK6Process gives k6 as its working folder is removed when k6 left it empty, and
// kept when k6 wrote into it. Node stands in for k6: the folder handling does not depend on what runs.
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runK6Process } from './k6-process.ts';

let saved: string | undefined;
let tmp = '';
beforeEach(() => {
  saved = process.env.TMPDIR;
  tmp = mkdtempSync(join(tmpdir(), 'petcert-k6-process-test-'));
  process.env.TMPDIR = tmp; // os.tmpdir() reads it on every call
});
afterEach(() => {
  if (saved === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = saved;
});

const run = (script: string) => runK6Process({ k6: process.execPath, args: ['-e', script], timeoutMs: 10_000 });

describe('the working folder petcert makes for k6', () => {
  it('is removed once k6 exits having written nothing there', async () => {
    expect((await run('process.exit(0)')).code).toBe(0);
    expect((await run('process.exit(99)')).code).toBe(99);
    expect(readdirSync(tmp)).toEqual([]);
  });

  it('is kept, with what k6 wrote, when k6 wrote into it', async () => {
    expect((await run("require('node:fs').writeFileSync('out.json', '{}')")).code).toBe(0);
    const [folder, ...more] = readdirSync(tmp);
    expect(more).toEqual([]);
    expect(readdirSync(join(tmp, folder!))).toEqual(['out.json']);
  });
});
