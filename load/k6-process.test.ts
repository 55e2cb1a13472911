// The temporary folder runK6Process gives k6 as its working folder is removed when k6 left it empty, and
// kept when k6 wrote into it. Node stands in for k6: the folder handling does not depend on what runs.
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { k6Environment, runK6Process } from './k6-process.ts';

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

describe("k6's environment", () => {
  it('passes the proxy and trust variables through, and nothing else of the caller', async () => {
    const env = {
      PATH: '/bin',
      HOME: '/home/ci',
      HTTPS_PROXY: 'http://proxy:3128',
      no_proxy: '.corp',
      SSL_CERT_FILE: '/ca.pem',
      AWS_SECRET_ACCESS_KEY: 'nope',
      K6_INSECURE_SKIP_TLS_VERIFY: 'true',
    };
    expect(k6Environment({}, env)).toEqual({
      PATH: '/bin',
      HOME: '/home/ci',
      K6_NO_USAGE_REPORT: 'true',
      HTTPS_PROXY: 'http://proxy:3128',
      no_proxy: '.corp',
      SSL_CERT_FILE: '/ca.pem',
    });
  });

  it("the caller's own values win over the inherited ones", () => {
    expect(k6Environment({ HTTPS_PROXY: 'http://cli:1' }, { HTTPS_PROXY: 'http://env:2' }).HTTPS_PROXY).toBe(
      'http://cli:1',
    );
  });

  it('reaches the child process', async () => {
    const saved = process.env.HTTPS_PROXY;
    process.env.HTTPS_PROXY = 'http://proxy.test:3128';
    try {
      const run = await runK6Process({
        k6: process.execPath,
        args: ['-e', 'console.log(process.env.HTTPS_PROXY, process.env.SECRET_OF_CALLER ?? "none")'],
        timeoutMs: 10_000,
      });
      expect(run.stdout.trim()).toBe('http://proxy.test:3128 none');
    } finally {
      if (saved === undefined) delete process.env.HTTPS_PROXY;
      else process.env.HTTPS_PROXY = saved;
    }
  });
});
