// `petcert quota --rejudge JOURNAL`: a recorded run judged again offline (load/journal/rejudge.ts) and
// published like a live one: the same report files, verdict lines and exit code. Everything that shaped
// the live run comes from the journal; a flag that would change it is refused rather than ignored.
import { ConfigError } from '../core/errors.ts';
import { JOURNAL_FILE } from '../load/journal/format.ts';
import { readJournal } from '../load/journal/file.ts';
import { rejudgeJournal } from '../load/journal/rejudge.ts';
import { failOnFlag } from './flags.ts';
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
labels, never the keys). --rejudge JOURNAL judges it again offline with this petcert's rules, on a
virtual clock (no network, no keys, seconds instead of the run's minutes): the live run's verdicts and
exit code, given the same --fail-on and --allow-incomplete. A request the journal has no answer for
(this petcert probes differently, or the journal is cut short) leaves the checks that needed it
unjudged, naming it: INCOMPLETE, never PASS. A malformed journal or another format version: exit 2.`;

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
  const journal = readJournal(flags.rejudge!);
  const say = sayer(out, flags.json);
  const h = journal.header;
  say(
    `Re-judging ${flags.rejudge} offline: ${h.baseUrl} as petcert ${h.petcert} recorded it` +
      (h.part === undefined ? '' : ` (the ${h.part} part of petcert certify)`) +
      ` on ${new Date(h.startMs).toISOString()} (${journal.entries.length} exchanges)`,
  );
  const { report, missing, unused, replayed } = await rejudgeJournal(journal);
  const after = [
    `Re-judged from the journal: ${replayed} recorded exchanges answered, ${missing.length} requests without one, ${unused} recorded exchanges not asked for.`,
  ];
  return publishRun(report, {
    reportDir: flags.reportDir,
    json: flags.json,
    failOn,
    secrets: [],
    out,
    allowIncomplete: flags.allowIncomplete,
    after,
  });
}
