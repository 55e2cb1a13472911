// `petcert quota --rejudge JOURNAL`: a recorded run judged again offline (load/journal/rejudge.ts) and
// published like a live one: the same report files, verdict lines and exit code. Everything that shaped
// the live run comes from the journal; a flag that would change it is refused rather than ignored.
import { ConfigError } from '../core/errors.ts';
import { JOURNAL_FILE } from '../load/journal/format.ts';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { readDigestedJournal } from '../load/journal/file.ts';
import type { Report } from '../report/model.ts';
import { rejudgeJournal } from '../load/journal/rejudge.ts';
import { failOnFlag } from './flags.ts';
import { markInterrupted, SIGNAL_EXIT } from './interrupt.ts';
import { publishRun, sayer, type Out } from './publish.ts';

/** The quota flags --rejudge reads or refuses. */
export interface RejudgeFlags {
  rejudge?: string;
  reportDir: string;
  failOn: string;
  json?: boolean;
  allowIncomplete?: boolean;
  key: string[];
  only: string[];
  baseUrl?: string;
  plans?: string;
  limiterModel?: string;
  timeout?: string;
  maxWait?: string;
  allowProduction?: boolean;
  proxy?: string;
  caFile?: string;
  clientCert?: string;
  clientKey?: string;
  insecure?: boolean;
}

export const REJUDGE_HELP = `
Re-judging: every run writes ${JOURNAL_FILE} beside report.json (every exchange, keys as their plan
labels, never the keys; petcert certify writes one for its quota part). --rejudge JOURNAL judges it
again offline with this petcert's rules, on a virtual clock (no network, no keys, seconds instead of the
run's minutes): the live run's verdicts and exit code, given the same --fail-on and --allow-incomplete.
A request the journal has no answer for (this petcert probes differently, or the journal is cut short)
leaves the checks that needed it unjudged, naming it: INCOMPLETE, never PASS; the journal of a run
interrupted by SIGINT/SIGTERM says so, and its re-judge is INTERRUPTED, exit 130/143 as the live run's.
A malformed journal or another format version: exit 2.
What it proves: the verdict follows from the recorded answers under this petcert's rules. Not that the
answers are the service's: a journal is a file anyone can edit. report.json records the SHA-256 of the
journal's lines; a journal that no longer matches the report.json beside it is refused (exit 2), and
one with no report.json beside it is re-judged as unbound, saying so. The digest binds the journal to
its report, not to the service: whoever can rewrite both can forge both; keep the report where it cannot.`;

/**
 * What binds the journal to its run: the digest report.json recorded at record time, when report.json is
 * beside it. A journal whose lines no longer hash to it is refused (exit 2): an entry changed since the
 * run, or it is another run's journal. Without one, the re-judge says that nothing binds the answers.
 */
function binding(path: string, sha256: string): string {
  const reportPath = join(dirname(path), 'report.json');
  let recorded: string | undefined;
  if (existsSync(reportPath)) {
    try {
      recorded = (JSON.parse(readFileSync(reportPath, 'utf8')) as Partial<Report>).journal?.sha256;
    } catch {
      recorded = undefined;
    }
  }
  if (recorded === undefined)
    return (
      `Unbound: no report.json beside ${path} records its digest, so nothing shows these answers are the ones` +
      ' the service gave; the verdict below follows from them, whoever wrote them.'
    );
  if (recorded !== sha256)
    throw new ConfigError(
      `${path} does not match the report.json beside it: its lines hash to sha256 ${sha256}, the report recorded ` +
        `${recorded} (an entry was changed after the run, or this is another run's journal); nothing was re-judged`,
      '--rejudge',
    );
  return `Bound: its lines hash to the sha256 ${reportPath} recorded at the live run (${sha256.slice(0, 16)}…).`;
}

/** The live run's flags: with --rejudge they come from the journal. */
const FROM_JOURNAL: Array<[keyof RejudgeFlags, string]> = [
  ['baseUrl', '--base-url'],
  ['plans', '--plans'],
  ['limiterModel', '--limiter-model'],
  ['timeout', '--timeout'],
  ['maxWait', '--max-wait'],
  ['allowProduction', '--allow-production'],
  ['proxy', '--proxy'],
  ['caFile', '--ca-file'],
  ['clientCert', '--client-cert'],
  ['clientKey', '--client-key'],
  ['insecure', '--insecure'],
];

export async function rejudgeAction(flags: RejudgeFlags, out: Out): Promise<number> {
  const given = FROM_JOURNAL.filter(([name]) => flags[name] !== undefined).map(([, flag]) => flag);
  if (flags.key.length > 0) given.push('--key');
  if (flags.only.length > 0) given.push('--only');
  if (given.length > 0)
    throw new ConfigError(
      `cannot be combined with ${given.join(', ')}: a re-judged run takes them from its journal`,
      '--rejudge',
    );
  const failOn = failOnFlag(flags.failOn);
  const { journal, sha256 } = readDigestedJournal(flags.rejudge!);
  const bound = binding(flags.rejudge!, sha256);
  const say = sayer(out, flags.json);
  const h = journal.header;
  say(
    `Re-judging ${flags.rejudge} offline: ${h.baseUrl} as petcert ${h.petcert} recorded it` +
      (h.part === undefined ? '' : ` (the ${h.part} part of petcert certify)`) +
      ` on ${new Date(h.startMs).toISOString()} (${journal.entries.length} exchanges)`,
  );
  say(bound);
  const { report, missing, unused, replayed } = await rejudgeJournal(journal);
  const after = [
    `Re-judged from the journal: ${replayed} recorded exchanges answered, ${missing.length} requests without one, ${unused} recorded exchanges not asked for.`,
  ];
  // An interrupted live run is re-judged as it was published: marked INTERRUPTED, its signal's exit code.
  if (h.interrupted)
    after.push(
      `The live run was interrupted by ${h.interrupted}: the requests without an answer are the ones it never sent.`,
    );
  const code = publishRun(h.interrupted ? markInterrupted(report, h.interrupted) : report, {
    reportDir: flags.reportDir,
    json: flags.json,
    failOn,
    secrets: [],
    out,
    allowIncomplete: flags.allowIncomplete,
    after,
  });
  return h.interrupted ? SIGNAL_EXIT[h.interrupted] : code;
}
