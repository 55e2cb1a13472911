// Live runs that misjudged a correct server, kept as their journals: each re-judged offline must no longer
// fail a MUST rule, and must say why where the evidence cannot decide. The live verdict is in each row.
import { describe, expect, it } from 'vitest';
import { readJournal } from '../../load/journal/file.ts';
import { rejudgeJournal } from '../../load/journal/rejudge.ts';

interface Caught {
  name: string;
  /** What the live run said, and why it was wrong. */
  live: string;
  /** Checks the re-judge must leave unjudged, with a reason matching. */
  unjudged: Record<string, RegExp>;
}

const CAUGHT: readonly Caught[] = [
  {
    name: 'slowapi-moving-window-day-exact',
    live:
      'FAIL quota.day.exact[free] "2 requests admitted in one day window before the day 429" and quota.day.retry-after[free]: ' +
      "slowapi's moving window (a log) told fixed by a loaded minute count; 102 of the key's requests filled the day's 20 s",
    unjudged: { 'quota.day.exact[free]': /admitted within a day's length \(20 s\) before the day 429: a rolling day/ },
  },
];

describe.concurrent('misjudged live runs, re-judged offline', () => {
  it.for(CAUGHT)('$name: no MUST failure, and the reason where it cannot decide', async (c) => {
    const { report, missing } = await rejudgeJournal(readJournal(`testkit/journals/caught/${c.name}.jsonl.gz`));
    expect(missing).toEqual([]);
    const failed = report.checks.filter((k) => k.level === 'MUST' && k.outcome === 'fail');
    expect(
      failed.map((k) => `${k.id}: ${k.failures[0]?.message}`),
      c.live,
    ).toEqual([]);
    for (const [id, reason] of Object.entries(c.unjudged)) {
      const check = report.checks.find((k) => k.id === id);
      expect(check?.outcome, id).toBe('skip');
      expect(check?.skipKind ?? 'unjudged', id).toBe('unjudged');
      expect(check?.skipReason).toMatch(reason);
    }
  });
});
