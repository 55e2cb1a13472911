// Every recorded journal, re-judged offline: the verdict the live run gave at recording time (exit code,
// verdict, each check's outcome, messages, reason and fix), in a second or two instead of its minute.
// A difference is a change of petcert's verdict on that server: a fix (re-record, scripts/record-journals.ts)
// or a regression. A journal the probes now ask more of says which request it lacks. A row with `fixed` is a
// live run petcert misjudged: re-judged, it gives the fixed verdict, and its live verdict stays as recorded.
import { describe, expect, it } from 'vitest';
import { JOURNAL_FILE } from '../../load/journal/format.ts';
import { readJournal } from '../../load/journal/file.ts';
import { rejudgeJournal } from '../../load/journal/rejudge.ts';
import { exitCodeOf, settled } from '../../report/model.ts';
import { earlySends } from './early-sends.ts';
import {
  caughtBy,
  checkVerdicts,
  expectedVerdict,
  JOURNALS_DIR,
  looseInRepaced,
  PACED_DIFFERENTLY,
  proofOf,
  repacedAllows,
  readVerdict,
  RECORDINGS,
  type Recording,
} from './recordings.ts';

/** A recording of a correct server as it was recorded (no regression kept): its proof expects a PASS. */
const ofCorrectServer = (r: Recording): boolean =>
  !r.fixed && !r.kept && (r.proof ? proofOf(r)?.expect === 'pass' : r.reference?.faults === undefined);

describe.concurrent(`recorded ${JOURNAL_FILE} re-judged offline`, () => {
  it.for(RECORDINGS.map((r) => r.name))('%s: the live run’s verdict, or its fix', async (name) => {
    const recording = RECORDINGS.find((r) => r.name === name)!;
    const expected = expectedVerdict(recording);
    const { report, missing } = await rejudgeJournal(readJournal(`${JOURNALS_DIR}${name}.jsonl.gz`));
    // Every request a repaced recording's replay stops is one the journal has, asked at another moment.
    expect(missing.filter((m) => !recording.repaced || m.offMs === undefined)).toEqual([]);
    const published = settled(report, 'must');
    const paced = (c: ReturnType<typeof checkVerdicts>[number]) =>
      c.reason && PACED_DIFFERENTLY.reason.test(c.reason) ? { ...c, reason: PACED_DIFFERENTLY.mark } : c;
    const checks = checkVerdicts(report).map(paced);
    if (!recording.repaced) {
      expect({ exit: exitCodeOf(published), verdict: published.verdict, checks }).toEqual(expected);
      return;
    }
    // Repaced: the replay stops where this petcert paces differently (a request asked at another moment), the run
    // INCOMPLETE unless it failed; every other key's checks and those kept for the regression as recorded.
    expect(checks.find((c) => c.id === 'quota.journal.complete')?.reason).toBe(PACED_DIFFERENTLY.mark);
    const [exit, verdict] = expected.exit === 1 ? [1, 'fail'] : [4, 'incomplete'];
    expect({ exit: exitCodeOf(published), verdict: published.verdict }).toEqual({ exit, verdict });
    const loosens = looseInRepaced(recording);
    const strict = (c: { id: string }) => !loosens(c.id) && c.id !== 'quota.journal.complete';
    expect(checks.filter(strict)).toEqual(expected.checks.filter(strict));
    const got = new Map(checks.map((c) => [c.id, c] as const));
    const loose = expected.checks.filter((c) => !strict(c));
    expect(loose.filter((c) => !repacedAllows(c, got.get(c.id)))).toEqual([]);
  });

  it.for(RECORDINGS.filter((r) => caughtBy(r)).map((r) => r.name))('%s: its fault is caught', async (name) => {
    const catches = caughtBy(RECORDINGS.find((r) => r.name === name)!)!;
    const { report } = await rejudgeJournal(readJournal(`${JOURNALS_DIR}${name}.jsonl.gz`));
    const failed = report.checks.filter((c) => c.level === 'MUST' && c.outcome === 'fail').map((c) => c.id);
    const caught = failed.filter((id) => catches.includes(id.replace(/\[[^\]]*\]$/, '')));
    expect(caught, `failed: ${failed.join(', ') || 'none'}`).not.toEqual([]);
  });

  // The live run it was recorded from passed too: a recording made on a loaded machine that ended INCOMPLETE proves less.
  it.for(RECORDINGS.filter(ofCorrectServer).map((r) => r.name))('%s: a correct server, PASS', async (name) => {
    const { report } = await rejudgeJournal(readJournal(`${JOURNALS_DIR}${name}.jsonl.gz`));
    const published = settled(report, 'must');
    expect({ exit: exitCodeOf(published), verdict: published.verdict }).toEqual({ exit: 0, verdict: 'pass' });
  });

  it.for(RECORDINGS.map((r) => r.name))('%s: no request on a key before its last 429 allowed', (name) => {
    expect(earlySends(readJournal(`${JOURNALS_DIR}${name}.jsonl.gz`).entries)).toEqual([]);
  });

  // A reason that contradicts the evidence is a misjudgement too: an unjudged check may be fixed in its reason alone.
  it.for(RECORDINGS.filter((r) => r.fixed).map((r) => r.name))(
    '%s: its live run gave another verdict or reason',
    (name) => {
      const recording = RECORDINGS.find((r) => r.name === name)!;
      const recorded = readVerdict(name);
      const live = recorded.checks.filter((c) => recording.fixed!.checks[c.id]);
      expect(live.length).toBe(Object.keys(recording.fixed!.checks).length);
      const differs = (c: (typeof live)[number]): boolean => {
        const now = recording.fixed!.checks[c.id]!;
        return c.outcome !== now.outcome || (now.outcome === 'skip' && c.reason !== now.reason);
      };
      expect(live.every(differs)).toBe(true);
    },
  );

  it.for(RECORDINGS.filter((r) => r.kept).map((r) => r.name))('%s: its live run failed what now passes', (name) => {
    const recorded = readVerdict(name);
    expect(recorded.live?.failed.length).toBeGreaterThan(0);
    expect(recorded.live!.failed.every((id) => recorded.checks.find((c) => c.id === id)?.outcome !== 'fail')).toBe(
      true,
    );
  });
});
