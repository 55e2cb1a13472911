// A configured key is never printed, whatever its length (docs/decisions/005). With the key `k1`, a run whose
// failures record requests sent with it (curl repros included) and whose auth checks send its
// near-copies: no artifact and no console line carries it, while text that merely contains "k1"
// (inside a word) is left as it was.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { listen, type RunningServer } from '../reference/index.ts';
import { summarize } from '../load/shared/summary.ts';
import { BIG_PLANS, faultRouter, VALID } from '../testkit/conformance/faults.ts';
import { conformAction } from './conform.ts';

const KEY = 'k1';
/** The key as a whole token: what a leak looks like (inside a longer word it is not the key). */
const LEAK = /(^|[^A-Za-z0-9\-._~+/=])k1(?![A-Za-z0-9\-._~+/=])/i;
let server: RunningServer;

beforeAll(async () => {
  VALID.key = KEY;
  server = await listen({ keys: { [KEY]: 'big' }, plans: BIG_PLANS, wrap: faultRouter, log: () => undefined });
});
afterAll(() => server.close());

const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)],
  );

test.for(['listItemsWithoutCategory', 'acceptsAnyBearer'])(
  'conform with the key "k1" on %s: failures recorded, the key nowhere',
  async (fault) => {
    const dir = mkdtempSync(join(tmpdir(), 'petcert-short-key-'));
    const lines: string[] = [];
    const out = { log: (s: string) => void lines.push(s), err: (s: string) => void lines.push(s) };
    const code = await conformAction(
      {
        baseUrl: server.baseUrl.replace(/\/v1$/, `/${fault}/v1`),
        apiKey: KEY,
        failOn: 'must',
        reportDir: dir,
        seed: '3',
        json: true,
      },
      out,
    );
    expect(code).toBe(1);
    const texts = [lines.join('\n'), ...filesUnder(dir).map((f) => readFileSync(f, 'utf8'))];
    // The failures carry requests sent with the key, and their curl repros.
    const report = JSON.parse(readFileSync(join(dir, 'latest', 'report.json'), 'utf8')) as {
      checks: Array<{ failures: Array<{ repro: string; request: { headers: Record<string, string> } | null }> }>;
    };
    const failures = report.checks.flatMap((c) => c.failures);
    expect(failures.some((f) => f.request?.headers.authorization === 'Bearer ***')).toBe(true);
    expect(failures.some((f) => f.repro.includes("'authorization: Bearer $API_KEY'"))).toBe(true);
    for (const text of texts) expect(LEAK.exec(text)?.[0]).toBeUndefined();
  },
);

test('k6 summaries: the short key goes, words that contain it stay', () => {
  const data = {
    metrics: { http_reqs: { type: 'counter', values: { count: 3 } } },
    root_group: { checks: [{ name: 'echo Bearer k1, talk1ng k10', passes: 1, fails: 0 }] },
  };
  const text = summarize('quota-minute', 'http://127.0.0.1:1/v1', data, [KEY]);
  expect(text).not.toMatch(LEAK);
  expect(text).toContain('talk1ng k10');
});
