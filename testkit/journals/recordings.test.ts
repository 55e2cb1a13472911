// Every recorded journal, re-judged offline: the verdict the live run gave at recording time (exit code,
// verdict, each check's outcome, messages, reason and fix), in a second or two instead of its minute.
// A difference is a change of petcert's verdict on that server: a fix (re-record, scripts/record-journals.ts)
// or a regression. A journal the probes now ask more of says which request it lacks.
import { describe, expect, it } from 'vitest';
import { JOURNAL_FILE } from '../../load/journal/format.ts';
import { readJournal } from '../../load/journal/file.ts';
import { rejudgeJournal } from '../../load/journal/rejudge.ts';
import { exitCodeOf, settled } from '../../report/model.ts';
import { checkVerdicts, JOURNALS_DIR, readVerdict, RECORDINGS } from './recordings.ts';

describe.concurrent(`recorded ${JOURNAL_FILE} re-judged offline`, () => {
  it.for(RECORDINGS.map((r) => r.name))('%s: the live run’s verdict', async (name) => {
    const recorded = readVerdict(name);
    const { report, missing } = await rejudgeJournal(readJournal(`${JOURNALS_DIR}${name}.jsonl.gz`));
    expect(missing).toEqual([]);
    const published = settled(report, 'must');
    expect({
      exit: exitCodeOf(published),
      verdict: published.verdict,
      checks: checkVerdicts(report),
    }).toEqual({ exit: recorded.exit, verdict: recorded.verdict, checks: recorded.checks });
  });
});
