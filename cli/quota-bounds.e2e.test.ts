// `petcert quota` against rate-limit liars over real sockets and real time (compressed windows): each run
// prints its worst case, ends within it and reports the lie (every wait ends: docs/decisions/006).
import { mkdtempSync, readFileSync } from 'node:fs';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { Handle } from '../reference/index.ts';
import { listen } from '../reference/index.ts';
import { unjudgedMust, type Report } from '../report/model.ts';
import { parsePlansFile } from '../spec/plans.ts';
import { RATE_LIMIT_LIES, type LieName, type RateLimitLie } from '../testkit/http/hostile.ts';
import { quotaAction } from './quota.ts';

const dir = mkdtempSync(join(tmpdir(), 'petcert-quota-bounds-'));
const plansJson = {
  windows: { minuteSeconds: 1, daySeconds: 4 },
  plans: { free: { perMinute: 3, perDay: 11 }, pro: { perMinute: 4, perDay: 14 } },
};
const plansFile = join(dir, 'plans.json');
writeFileSync(plansFile, JSON.stringify(plansJson));
// The correct server's proof on 2 s minute windows: with 1 s ones the server's Date (whole seconds) places
// petcert's recovery request only to within a whole window, so on a loaded machine (answers 10-60 ms away)
// it can land two windows after the 429, the fixed window read as a sliding log, and the day judged as one
// (quota.day.exact fails on 6 of 60 seeds in virtual time; 0 of 60 at 2 s).
const roomyJson = { ...plansJson, windows: { minuteSeconds: 2, daySeconds: 8 } };
const roomyFile = join(dir, 'plans-2s.json');
writeFileSync(roomyFile, JSON.stringify(roomyJson));
const key = 'pc_free_bounds_zzzzzz';
const proKey = 'pc_pro_bounds_zzzzzzz';

vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
afterAll(() => vi.restoreAllMocks());

const lying =
  (lie: RateLimitLie) =>
  (handle: Handle): Handle =>
  async (req) =>
    lie(await handle(req), Date.now());

async function quota(
  name: string,
  lie: RateLimitLie | undefined,
  extra: string[] = [],
  keys = [`free=${key}`],
  plans = { json: plansJson, file: plansFile },
) {
  const server = await listen({
    plans: parsePlansFile(plans.json),
    keys: { [key]: 'free', [proKey]: 'pro' },
    ...(lie ? { wrap: lying(lie) } : {}),
  });
  const lines: string[] = [];
  const reportDir = join(dir, name.replace(/\W+/g, '-'));
  const started = Date.now();
  try {
    const code = await quotaAction(
      {
        baseUrl: server.baseUrl,
        key: keys,
        plans: plans.file,
        only: [],
        reportDir,
        failOn: 'must',
        timeout: '1000',
        ...(extra.length ? { maxWait: extra[0]! } : {}),
      },
      { log: (l) => lines.push(l), err: (l) => lines.push(l) },
    );
    const wallMs = Date.now() - started;
    const printed = /Worst case: this run ends within (?:(\d+)m)?(\d+) ?s/.exec(lines.join('\n'));
    const report = JSON.parse(readFileSync(join(reportDir, 'latest', 'report.json'), 'utf8')) as Report;
    return { code, wallMs, boundMs: (Number(printed?.[1] ?? 0) * 60 + Number(printed?.[2])) * 1000, report, lines };
  } finally {
    await server.close();
  }
}

const failedIds = (r: Report) => r.checks.filter((c) => c.outcome === 'fail').map((c) => c.id);

// A liar whose Reset never arrives keeps the probes waiting to their caps: about 30 s of real windows, too
// close to the default 30 s test timeout on a loaded machine.
describe.concurrent('petcert quota: every wait ends', { timeout: 60_000 }, () => {
  // Two plans: isolation needs a second key, and a PASS needs every MUST check judged.
  it('a correct server passes within the printed bound, every MUST check judged', async () => {
    const r = await quota('correct', undefined, [], [`free=${key}`, `pro=${proKey}`], {
      json: roomyJson,
      file: roomyFile,
    });
    expect(failedIds(r.report)).toEqual([]);
    expect(unjudgedMust(r.report).map((c) => `${c.id}: ${c.skipReason}`)).toEqual([]);
    expect(r.code).toBe(0);
    expect(r.wallMs).toBeLessThan(r.boundMs);
  });

  const expected: Record<LieName, string> = {
    'huge Retry-After': 'quota.retry-after.accurate[free]',
    'Reset in the past': 'quota.headers.reset[free]',
    'Reset that never arrives': 'quota.recovery[free]',
    'Retry-After as a far-future HTTP-date': 'quota.retry-after.accurate[free]',
  };
  it.for(Object.keys(expected) as LieName[])(
    '%s: ends within its printed bound, exit 1, the lie reported',
    async (name) => {
      const r = await quota(name, RATE_LIMIT_LIES[name]());
      expect(r.boundMs).toBeGreaterThan(0);
      expect(r.wallMs).toBeLessThan(r.boundMs);
      expect(r.code).toBe(1);
      expect(failedIds(r.report)).toContain(expected[name]);
    },
  );

  // A cut-short wait: the MUST checks of a probe cut short were not judged, so the run is INCOMPLETE
  // (exit 4), each named on the console with the stage it missed, the cut's reason and its fix.
  it('--max-wait 1: the probes that must wait longer are cut short and say so: INCOMPLETE, exit 4', async () => {
    const r = await quota('max-wait', undefined, ['1']);
    expect(failedIds(r.report)).toEqual([]);
    const cut = unjudgedMust(r.report).filter((c) =>
      / was not reached: probe cut short: not waited: .* beyond the 1s any wait may take/.test(c.skipReason ?? ''),
    );
    expect(cut.length).toBeGreaterThan(0);
    expect(cut.every((c) => c.fix?.startsWith('raise --max-wait'))).toBe(true);
    expect(r.code).toBe(4);
    const out = r.lines.join('\n');
    expect(out).toMatch(/^INCOMPLETE {2}petcert quota /m);
    expect(out).toMatch(
      /MUST checks? not judged \(INCOMPLETE, exit 4\):\n(.*\n)* {2}\? (\d+ checks|\S+): .* was not reached: probe cut short: not waited/,
    );
    expect(out).toMatch(/ {6}fix: raise --max-wait/);
    expect(r.wallMs).toBeLessThan(r.boundMs);
  });
});
