// A base URL that does not serve the Animal Store is named as such — exit 3 within 2 s,
// with what was sent, what came back and the likely fix — by every command, while a server whose one
// operation is broken (GET /pets/{id}) is a FAIL, never a wrong URL.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { keyPool } from '../reference/key-pool.ts';
import { listen, type Handle, type RunningServer } from '../reference/index.ts';
import type { Report } from '../report/model.ts';
import { keysFileText } from '../load/capacity/keys-file.ts';
import { ALTERNATIVES } from '../testkit/conformance/alternatives.ts';
import { BIG_PLANS, COVERAGE_FAULTS, FAULTS, faultRouter, VALID } from '../testkit/conformance/faults.ts';
import { error, isGet } from '../testkit/conformance/wraps.ts';
import type { HostileServer } from '../testkit/http/hostile.ts';
import { otherJsonApi, prefixProxy, redirectTo, staticFiles } from '../testkit/http/not-the-api.ts';
import { capacityAction } from './capacity.ts';
import { runCertify } from './certify-cli.ts';
import { conformAction } from './conform.ts';
import { identifyTarget } from './identify.ts';
import { quotaAction } from './quota.ts';

const KEY = 'petcert-identify-key-0123456789';
const BOUND_MS = 2000;
const dir = mkdtempSync(join(tmpdir(), 'petcert-identify-'));
let ref: RunningServer;
let brokenGet: RunningServer;
const others: Record<'proxy' | 'files' | 'json' | 'redirect', HostileServer> = {} as never;

beforeAll(async () => {
  ref = await listen({ keys: { [KEY]: 'big' }, plans: BIG_PLANS, log: () => undefined });
  // GET /pets/{id} alone answers 404 for pets that exist: one operation's defect.
  const breakGet =
    (h: Handle): Handle =>
    async (req) => {
      const res = await h(req);
      return isGet(req) && res.status === 200 ? error(res, 404) : res;
    };
  brokenGet = await listen({ keys: { [KEY]: 'big' }, plans: BIG_PLANS, log: () => undefined, wrap: breakGet });
  others.proxy = await prefixProxy(ref.port, '/api');
  others.files = await staticFiles();
  others.json = await otherJsonApi();
  others.redirect = await redirectTo(ref.baseUrl.replace(/\/v1$/, ''));
  // The bound is on petcert's own waits, not on loading its modules: the first run in a worker compiles
  // them (seconds on a loaded machine), so one unmeasured run goes first.
  await conform(others.files.baseUrl);
});
afterAll(async () => {
  await Promise.all([ref.close(), brokenGet.close(), ...Object.values(others).map((s) => s.close())]);
});

function capture() {
  const lines: string[] = [];
  return {
    out: { log: (s: string) => void lines.push(s), err: (s: string) => void lines.push(s) },
    text: () => lines.join('\n'),
  };
}

async function conform(baseUrl: string, extra: Record<string, string> = {}) {
  const c = capture();
  const reportDir = mkdtempSync(join(dir, 'conform-'));
  const started = performance.now();
  const code = await conformAction({ baseUrl, apiKey: KEY, failOn: 'must', reportDir, ...extra }, c.out);
  const ms = performance.now() - started;
  const report = JSON.parse(readFileSync(join(reportDir, 'latest', 'report.json'), 'utf8')) as Report;
  return { code, ms, text: c.text(), report };
}

describe('not the Animal Store: exit 3 within 2 s, what was sent and came back, the fix', () => {
  test('the reference server given a prefix it does not have (/api/v1 for /v1): did you mean /v1', async () => {
    const r = await conform(ref.baseUrl.replace(/\/v1$/, '/api/v1'));
    expect(r.code).toBe(3);
    expect(r.ms).toBeLessThan(BOUND_MS);
    expect(r.text).toMatch(/sent GET \S+\/api\/v1\/pets\?limit=1 \(with the key\) → 404 application\/json .*NOT_FOUND/);
    expect(r.text).toContain(`Did you mean --base-url ${ref.baseUrl}?`);
    expect(r.report).toMatchObject({ checks: [], aborted: { code: 'UNREACHABLE' } });
    expect(r.report.requests).toBeLessThanOrEqual(5);
    expect(r.text + JSON.stringify(r.report)).not.toContain(KEY);
  });

  test('the reference server behind a path prefix, given without it (/v1 for /api/v1): did you mean /api/v1', async () => {
    const r = await conform(others.proxy.baseUrl);
    expect(r.code).toBe(3);
    expect(r.ms).toBeLessThan(BOUND_MS);
    expect(r.text).toMatch(/→ 404 text\/html .*404 Not Found/);
    expect(r.text).toContain(`Did you mean --base-url ${others.proxy.origin}/api/v1?`);
    // Two operations without the key settled it: the key went nowhere.
    expect(others.proxy.requests().filter((q) => q.url.startsWith('/v1') && q.headers.authorization)).toEqual([]);
    const right = await identifyTarget({ baseUrl: `${others.proxy.origin}/api/v1`, key: KEY, field: '--base-url' });
    expect(right.verdict.identity).toBe('animal-store');
  });

  test('a static file server: its 404 and 501 pages; the key is never sent', async () => {
    const r = await conform(others.files.baseUrl);
    expect(r.code).toBe(3);
    expect(r.ms).toBeLessThan(BOUND_MS);
    expect(r.text).toMatch(/POST .*\/v1\/pets \{\} \(no key\) → 501 text\/html/);
    expect(r.text).toContain('Check --base-url');
    expect(others.files.requests().some((q) => q.headers.authorization)).toBe(false);
  });

  test('another JSON API (pets of another shape, 422 for a pet without a name)', async () => {
    const r = await conform(others.json.baseUrl);
    expect(r.code).toBe(3);
    expect(r.ms).toBeLessThan(BOUND_MS);
    expect(r.text).toMatch(
      /200 application\/json \[\{"id":1,"name":"Rex","tag":"dog"\}\]: 200 with JSON that is not what listPets answers/,
    );
    expect(r.text).toMatch(/→ 422 .*: 422 with JSON that is not what createPet answers/);
  });

  test('a redirecting server: the redirect is named and its target suggested, never asked with the key', async () => {
    const r = await conform(others.redirect.baseUrl);
    expect(r.code).toBe(3);
    expect(r.ms).toBeLessThan(BOUND_MS);
    expect(r.text).toMatch(
      /→ 308 .*a redirect \(308 to http:\/\/127\.0\.0\.1:\d+\/v1\/pets\?limit=1\): this API never redirects/,
    );
    expect(r.text).toContain(`Did you mean --base-url ${ref.baseUrl}? There: `);
  });

  test('GET /pets/{id} alone broken: the Animal Store with a defect, FAIL (exit 1), never exit 3', async () => {
    const r = await conform(brokenGet.baseUrl, { seed: '1' });
    expect(r.text).toMatch(/^Animal Store API v1 at .*a list of pets/m);
    expect(r.code).toBe(1);
    expect(r.report.aborted).toBeUndefined();
    expect(r.report.checks.filter((c) => c.outcome === 'fail').map((c) => c.id)).toContain('get.created');
  }, 60_000);
});

describe('never a wrong URL for a real Animal Store with one defect', () => {
  // Every fault and gap alternative the proof tests use: a defect is the checks' to judge.
  test('every fault server is identified (or left to the checks), never refused', async () => {
    VALID.key = KEY;
    const server = await listen({ keys: { [KEY]: 'big' }, plans: BIG_PLANS, wrap: faultRouter, log: () => undefined });
    try {
      const names = [...Object.keys(FAULTS), ...Object.keys(COVERAGE_FAULTS), ...Object.keys(ALTERNATIVES)];
      expect(names.length).toBeGreaterThan(40);
      for (const name of names) {
        const i = await identifyTarget({
          baseUrl: server.baseUrl.replace(/\/v1$/, `/${name}/v1`),
          key: KEY,
          field: '--base-url',
        });
        expect(i.verdict.identity, `${name}: ${i.refusal ?? i.verdict.why}`).not.toBe('not-animal-store');
      }
    } finally {
      await server.close();
    }
  });
});

describe('every command asks first', () => {
  const wrong = () => others.files.baseUrl;

  test('quota: exit 3 within 2 s, no probe run', async () => {
    const c = capture();
    const started = performance.now();
    const code = await quotaAction(
      { baseUrl: wrong(), key: [`free=${KEY}`], only: [], reportDir: join(dir, 'quota'), failOn: 'must' },
      c.out,
    );
    expect(code).toBe(3);
    expect(performance.now() - started).toBeLessThan(BOUND_MS);
    expect(c.text()).toContain('does not answer like the Animal Store API v1');
  });

  test('certify (a config target): exit 3 within 2 s, the fix names the config field', async () => {
    const config = join(dir, 'petcert.config.json');
    writeFileSync(
      config,
      JSON.stringify({
        targets: { staging: { baseUrl: wrong(), keys: [{ plan: 'free', env: 'PETCERT_IDENTIFY_KEY' }] } },
      }),
    );
    process.env.PETCERT_IDENTIFY_KEY = KEY;
    const started = performance.now();
    const code = await runCertify({ config, reportDir: join(dir, 'certify'), failOn: 'must' });
    expect(code).toBe(3);
    expect(performance.now() - started).toBeLessThan(BOUND_MS);
    const report = JSON.parse(readFileSync(join(dir, 'certify', 'latest', 'report.json'), 'utf8')) as Report;
    expect(report.aborted?.message).toContain('Check targets.staging.baseUrl');
  });

  test('capacity: exit 3 within 2 s, before any k6 process', async () => {
    const keysFile = join(dir, 'keys.txt');
    writeFileSync(keysFile, keysFileText(Object.entries(keyPool({ free: 3 })).map(([key, plan]) => ({ plan, key }))));
    const c = capture();
    const started = performance.now();
    // K6 is any executable: identification refuses the target before k6 would run.
    const flags = {
      baseUrl: wrong(),
      keysFile,
      mix: 'free=1',
      scaleToKeys: true,
      canaries: false,
      calibrate: false,
      reportDir: join(dir, 'capacity'),
      failOn: 'must',
      script: keysFile,
    };
    const code = await capacityAction(flags, c.out, { ...process.env, K6: process.execPath });
    expect(code).toBe(3);
    expect(performance.now() - started).toBeLessThan(BOUND_MS);
    expect(c.text()).toContain('does not answer like the Animal Store API v1');
  });
});
