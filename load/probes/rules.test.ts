// The one check model in the probes: a probe's results reach the ledger only through its
// table of rules, and a probe whose observation is missing reports every check it owns unjudged, with why.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parsePlansFile, resolvePlan } from '../../spec/plans.ts';
import { productFiles } from '../../testkit/load/product-files.ts';
import { BURST_RULES, type BurstObservation } from './burst/burst.ts';
import { CHECKS, PROBE_CHECKS, type ProbeName } from './checks.ts';
import type { Unjudged } from '../../report/check.ts';
import { createFindings, type ProbeRule } from './findings.ts';
import { DAY_RULES } from './day/day-rules.ts';
import type { DayObservation } from './day/day.ts';
import { ISOLATION_RULES, type IsolationObservation } from './isolation/isolation.ts';
import type { MinuteObservation } from './minute/minute.ts';
import { MINUTE_RULES, minuteEnded } from './minute/minute-rules.ts';

const plans = parsePlansFile({
  windows: { minuteSeconds: 2, daySeconds: 16 },
  plans: { free: { perMinute: 4, perDay: 20 } },
});
const scope = { ctx: { windows: plans.windows }, k: { plan: resolvePlan(plans, 'free') } };

/** Calls that record a result directly on a ledger or a probe's findings, by-passing the rule tables. */
export function directCalls(source: string): string[] {
  return [...source.matchAll(/\b(?:f|ledger|findings(?:\[[^\]]*\])?!?)\.(?:pass|fail|skip|observe)\(/g)].map(
    (m) => m[0],
  );
}

const dir = (path: string) => fileURLToPath(new URL(path, import.meta.url));
/** Every product file under a folder, subfolders included (each probe's folder of load/probes). */
const sources = (path: string) => productFiles(dir(path));

describe('results reach the ledger through rule tables only', () => {
  it('finds a direct pass, fail, skip or observe, on a ledger or on findings', () => {
    expect(
      directCalls(
        "run.f.pass('status');\nledger.fail(check, x);\nfindings[0]!.skip('isolation', 'x');\nf.observe('model', m)",
      ),
    ).toHaveLength(4);
    expect(directCalls('verdict.pass; verdict.fail({ message }); observe(run); run.f.judge(RULES, o)')).toEqual([]);
  });
  it.for([
    ['load/probes', '.'],
    ['load/capacity', '../capacity/'],
  ])('no file of %s records directly', ([, path]) => {
    for (const file of sources(path!)) {
      expect(directCalls(readFileSync(`${dir(path!)}/${file}`, 'utf8')), file).toEqual([]);
    }
  });
});

const cut: Unjudged = {
  reason: 'probe cut short: not waited: the wait Retry-After asks for needs 2d',
  fix: 'raise --max-wait',
};

/** Each reshaped probe, its rules and an observation holding nothing but the cut. */
const probes: Array<[ProbeName, readonly ProbeRule<never>[], unknown]> = [
  ['minute', MINUTE_RULES as readonly ProbeRule<never>[], { scope, cut } satisfies MinuteObservation],
  [
    'day',
    DAY_RULES as readonly ProbeRule<never>[],
    { scope, examined: [], searched: [], cut } satisfies DayObservation,
  ],
  ['burst', BURST_RULES as readonly ProbeRule<never>[], { scope, cut } satisfies BurstObservation],
  [
    'isolation',
    ISOLATION_RULES as readonly ProbeRule<never>[],
    { spentPlan: 'free', answers: [], cut } satisfies IsolationObservation,
  ],
];

/** Wordings that name no cause: a reader of one check would have to look at the others to learn why. */
const NON_REASON = /see the other checks|^not reached|^not run$|^$/;

describe('a probe whose observation is missing', () => {
  it.for(probes)(
    "%s: every check it owns is unjudged naming its missing stage, with the cut's reason and fix, none absent",
    ([probe, rules, seen]) => {
      const f = createFindings('free', []);
      f.judge(rules as readonly ProbeRule<unknown>[], seen, PROBE_CHECKS[probe]);
      const checks = f.results();
      expect(checks.map((c) => c.id).sort()).toEqual(PROBE_CHECKS[probe].map((k) => `${CHECKS[k].id}[free]`).sort());
      for (const c of checks) {
        expect(c, c.id).toMatchObject({ outcome: 'skip', skipKind: 'unjudged', fix: cut.fix });
        expect(c.skipReason, c.id).toMatch(
          new RegExp(`^.+ was not reached: ${cut.reason.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`),
        );
      }
    },
  );
  it('a day quota that cannot bind at the minute pace: every day check not applicable, none unjudged', () => {
    const f = createFindings('free', []);
    f.judge(DAY_RULES, { scope, cannotBind: true, examined: [], searched: [] }, PROBE_CHECKS.day);
    expect(f.results().map((c) => c.skipKind)).toEqual(PROBE_CHECKS.day.map(() => 'not-applicable'));
  });
  it('without a cut, each check says the stage that gave no evidence and why, never "see the other checks"', () => {
    const f = createFindings('free', []);
    f.judge(MINUTE_RULES, { scope, tooSlow: true }, PROBE_CHECKS.minute);
    const checks = f.results();
    expect(checks).toHaveLength(PROBE_CHECKS.minute.length);
    for (const c of checks) {
      expect(c.skipReason, c.id).toMatch(/the target is too slow for this window length/);
      expect(c.fix, c.id).toMatch(/windows\.minuteSeconds/);
      expect(c.skipReason, c.id).not.toMatch(NON_REASON);
    }
  });
  it("the isolation probe rides on the minute probe: its cut or slowness is isolation's reason too", () => {
    const f = createFindings('free', []);
    f.judge(
      ISOLATION_RULES,
      { spentPlan: 'free', answers: [], cut: minuteEnded({ scope, tooSlow: true }) },
      PROBE_CHECKS.isolation,
    );
    expect(f.results()[0]).toMatchObject({
      outcome: 'skip',
      skipReason: expect.stringMatching(/too slow/),
      fix: expect.stringMatching(/minuteSeconds/),
    });
  });
});

describe("no circular non-reason in the probes' sources", () => {
  it('no product file of load/ or report/ words a skip as "see the other checks" or bare "not reached"', () => {
    const offenders = [
      ['load/probes', '.'],
      ['load/capacity', '../capacity/'],
      ['report', '../../report/'],
    ].flatMap(([, path]) =>
      sources(path!).filter((file) =>
        /see the other checks|['"`]not reached[\s(]/.test(readFileSync(`${dir(path!)}/${file}`, 'utf8')),
      ),
    );
    expect(offenders).toEqual([]);
  });
  it('the scan finds the wording it forbids', () => {
    expect(
      /see the other checks|['"`]not reached[\s(]/.test(
        "verdict.unjudged('not reached (see the other checks of this probe)')",
      ),
    ).toBe(true);
  });
});
