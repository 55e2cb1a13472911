// The report: findings as data. report.json is the source; JUnit, HTML and the console summary are
// renderings of it. The shape of report.json is an interface other tools read (docs/decisions/008): change
// it only by adding optional fields.

import type { PlanTable } from '../spec/plans.ts';
import type { CapacityVerdict } from './capacity.ts';

export type Level = 'MUST' | 'SHOULD' | 'OBSERVE';
export type Outcome = 'pass' | 'fail' | 'skip';

/**
 * Why a check has no pass or fail. `unjudged` ("could not judge"): the rule applies to this run but
 * petcert could not decide it (budget, an undecidable window, a cut-short wait): an unjudged MUST
 * check makes the run INCOMPLETE, never a pass. `not-applicable`: the rule does not bind this run (a
 * rule of another limiter model, a condition this command never provokes); it never hides a rule the
 * command owns.
 */
export type SkipKind = 'unjudged' | 'not-applicable';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

export interface RecordedResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface Failure {
  message: string;
  request: RecordedRequest | null;
  response: RecordedResponse | null;
  /** A curl command that replays the request, key redacted. */
  repro: string;
  /** The shrunk fast-check counterexample or probe parameters, when there is one. */
  counterexample?: unknown;
  expected?: unknown;
  received?: unknown;
}

export interface CheckResult {
  /** In a certification, prefixed with its part: "quota/quota.minute.exact[free]". */
  id: string;
  /** In a certification, the part it came from ("conform[free]", "quota"), as a value (additive). */
  part?: string;
  title: string;
  level: Level;
  /** Section of shared/spec/animal-store-v1.md (or RFC) the check enforces, e.g. "§4.1 rule 2". */
  specRef: string;
  outcome: Outcome;
  /** What the server did (OBSERVE checks, and context for others). */
  observed?: unknown;
  failures: Failure[];
  /**
   * With failures of more than one distinct cause (operation × status × what was wrong): each cause and
   * how many failures it had, kept in `failures` or not (one example of every cause is kept first).
   */
  causes?: Array<{ cause: string; count: number }>;
  /** Why a check was skipped (budget, no k6, not applicable). */
  skipReason?: string;
  /** With outcome 'skip': could not judge, or does not apply (absent on older reports: unjudged). */
  skipKind?: SkipKind;
  /** With an unjudged skip: what would let the check run, e.g. "raise --budget to 212". */
  fix?: string;
}

/** One point of a quota probe's time series (for plots). Times are server ms where known. */
export interface Sample {
  t: number;
  status: number;
  limit?: number;
  remaining?: number;
  reset?: number;
  retryAfter?: number;
}

/**
 * What a series is of, as a value (names like "quota/minute:free#2" are for people and older readers,
 * never parsed): the probe, the plan of the key, the key's label among the run's keys, and in a
 * certification the part it came from.
 */
export interface SeriesSubject {
  probe: string;
  plan: string;
  /** "free", or "free#2" for a second key on one plan: the label check ids carry ("[free#2]"). */
  key: string;
  /** A certification's part ("quota"). */
  part?: string;
}

/** What every report carries, whatever the command. */
export interface ReportBase {
  tool: 'petcert';
  version: string;
  target: string;
  startedAt: string;
  finishedAt: string;
  seed: number | null;
  requests: number;
  checks: CheckResult[];
  /** Set when the run stopped early on purpose; the verdict is then incomplete. */
  aborted?: { code: AbortCode; message: string };
  /** The windows and plan figures the run measured against (for plots and readers). */
  plans?: PlanTable;
  /** The verdict at the run's --fail-on level, set when the run is published (older reports: absent). */
  verdict?: Verdict;
  /** Set (true) when --allow-incomplete turned an INCOMPLETE verdict into exit 0: the report says so. */
  allowIncomplete?: boolean;
  /** How the target was reached (absent on older reports): the proxy (credentials redacted), the trust, verification. */
  network?: RunNetwork;
}

/** What every rendering says of the reading a run's quota counts were judged under (none on older reports). */
export const readingLine = (report: Pick<Report, 'reading'>): string | undefined =>
  report.reading &&
  `Quotas ${report.reading.text}${report.reading.declared ? ", as declared (--limiter-model or the plans file's limiterModel)" : ''}`;

/** What every rendering says of a run made with --insecure. */
export const TLS_OFF_TEXT = "TLS verification was off (--insecure): the target's certificate was not checked";

/** The network a run went over (http/network.ts writes it). */
export interface RunNetwork {
  /** The proxy the target's requests went through, null when direct. */
  proxy: string | null;
  /** Where that proxy came from: --proxy, a config field, HTTPS_PROXY… */
  proxyFrom?: string;
  caFile?: string;
  clientCert?: string;
  /** "off" when --insecure: the report says "TLS verification was off". */
  tlsVerification: 'on' | 'off';
}

/** The fields one engine writes. */
export interface EngineFields {
  /** Pet ids petcert created on the target (the API has no delete): conform, certify. */
  createdIds: Array<number | string>;
  /** Quota probes: probe id → samples (quota, certify). */
  series: Record<string, Sample[]>;
  /** What each series is of, under the same name as in `series` (additive: absent on older reports). */
  subjects: Record<string, SeriesSubject>;
  /** k6 summary figures, when a k6 run was part of this report (quota; certify: part label → figures). */
  k6: unknown;
  /** `petcert capacity`: planned, sustained and breaking rates, headroom, per-step figures. */
  capacity: CapacityVerdict;
  /** The reading the quota counts were judged under (quota, certify; absent on older reports). */
  reading: Reading;
  /** Windows in which a key had more admitted than its plan's figure, under any reading (quota, certify). */
  overAdmitted: OverAdmitted[];
  /** The journal written beside this report and the digest of its lines at record time (quota, certify). */
  journal: JournalBinding;
}

/**
 * Binds a journal to the report it came with: the SHA-256 (hex) of its JSON lines as written, before gzip.
 * petcert quota --rejudge refuses a journal whose lines no longer hash to it (exit 2).
 */
export interface JournalBinding {
  file: string;
  sha256: string;
}

/** One window's length (server time) in which more than the plan's figure were admitted. */
export interface OverAdmitted {
  quota: 'minute' | 'day';
  plan: string;
  /** The key's label ("free", "free#2"). */
  key: string;
  admitted: number;
  /** Server ms of the window's first admitted answer (the quota plot shades from there). */
  startMs: number;
  /** From the first admitted answer of the window to the last (server ms, less than the window's length). */
  spanMs: number;
  figure: number;
}

/**
 * How the quota counts were read: the specification's windows (`model: 'window'`, at most N in any window's
 * length), or the model the vendor declared (`declared`: a token bucket of capacity N, N per window).
 */
export interface Reading {
  model: string;
  declared: boolean;
  /** The sentence every rendering prints. */
  text: string;
}

/** A kind's own fields (optional), and every other engine's field absent: a reader may ask any report for them. */
type Fields<Own extends keyof EngineFields> = Partial<Pick<EngineFields, Own>> & {
  [F in Exclude<keyof EngineFields, Own>]?: undefined;
};

export type ConformReport = ReportBase & Fields<'createdIds'> & { kind: 'conform' };
export type QuotaReport = ReportBase &
  Fields<'series' | 'subjects' | 'k6' | 'reading' | 'overAdmitted' | 'journal'> & { kind: 'quota' };
export type CertifyReport = ReportBase &
  Fields<'createdIds' | 'series' | 'subjects' | 'k6' | 'reading' | 'overAdmitted' | 'journal'> & {
    kind: 'certify';
  };
export type CapacityReport = ReportBase & Fields<'capacity'> & { kind: 'capacity' };

/**
 * report.json: one shape per command, told apart by `kind`, rather than one bag of every engine's
 * optional fields: a quota report cannot be given created pets, nor a conform report a capacity verdict.
 * Every field is where a reader of report.json expects it, and any field of any report may be read
 * (absent when the kind does not write it).
 */
export type Report = ConformReport | QuotaReport | CertifyReport | CapacityReport;

export type FailOn = 'must' | 'should';

/**
 * pass: every MUST check the run owns was judged and none failed (at the fail-on level). fail: one
 * failed. incomplete: the run stopped before a verdict (`aborted`), or finished with a MUST check it
 * could not judge (docs/decisions/001): never a pass.
 */
export type Verdict = 'pass' | 'fail' | 'incomplete';

export function failingChecks(report: Pick<Report, 'checks'>, failOn: FailOn = 'must'): CheckResult[] {
  return report.checks.filter(
    (c) => c.outcome === 'fail' && (c.level === 'MUST' || (failOn === 'should' && c.level === 'SHOULD')),
  );
}

/** A skipped check without a kind is unjudged: older reports, and any skip that did not say otherwise. */
export const isUnjudged = (c: CheckResult): boolean => c.outcome === 'skip' && c.skipKind !== 'not-applicable';
export const isNotApplicable = (c: CheckResult): boolean => c.outcome === 'skip' && c.skipKind === 'not-applicable';

/** MUST checks that bind this run but were not judged: each makes the run INCOMPLETE. */
export function unjudgedMust(report: Pick<Report, 'checks'>): CheckResult[] {
  return report.checks.filter((c) => c.level === 'MUST' && isUnjudged(c));
}

export function verdictOf(report: Pick<Report, 'checks' | 'aborted'>, failOn: FailOn = 'must'): Verdict {
  if (failingChecks(report, failOn).length > 0) return 'fail';
  return report.aborted || unjudgedMust(report).length > 0 ? 'incomplete' : 'pass';
}

/** Seconds from startedAt to finishedAt, or undefined when either does not parse. */
export function durationSeconds(report: Pick<Report, 'startedAt' | 'finishedAt'>): number | undefined {
  const seconds = (Date.parse(report.finishedAt) - Date.parse(report.startedAt)) / 1000;
  return Number.isFinite(seconds) ? seconds : undefined;
}

/** Why a run stopped early; `UNREACHABLE` covers "not answering like an HTTP API" too. */
export type AbortCode =
  | 'UNREACHABLE'
  | 'RATE_LIMITED'
  | 'RUN_TIMEOUT'
  | 'PRODUCTION_REFUSED'
  | 'GENERATOR_BOUND'
  | 'KEYS_BOUND'
  | 'INTERRUPTED';

/**
 * The verdict exit codes of every command, named once; every --help prints EXIT_CODES_TEXT, and README's
 * table, docs/certify-your-implementation.md and the CI example say the same (130/143: cli/interrupt.ts).
 */
export const EXIT = { pass: 0, fail: 1, usage: 2, stopped: 3, incomplete: 4 } as const;

export const EXIT_CODES_TEXT = [
  'Exit codes: 0 pass (every MUST check judged, none failed) · 1 a check failed at the --fail-on level',
  '· 2 usage or configuration error (quota/capacity on a production URL without --allow-production) · 3 stopped',
  "before a verdict (target unreachable or not this API, endless 429s, run timeout, certify's quota probes",
  'refused on production) · 4 INCOMPLETE: the run finished and nothing failed, but a MUST check',
  'could not be judged (each is listed with its reason and fix; --allow-incomplete makes this 0)',
  '· 130/143 interrupted by SIGINT/SIGTERM (the report of what was judged until then is written)',
  '· 70 an internal error of petcert (a bug: please report it).',
].join('\n');

/**
 * The CLI's exit code for a finished report: 1 when a check at the fail-on level failed; 3 when the run
 * stopped before a verdict (unreachable target, endless 429s, run timeout, production refused); 4 when
 * it finished with a MUST check it could not judge (0 with --allow-incomplete, recorded in the report
 * as allowIncomplete); otherwise 0. (2, usage errors, never gets this far.) CI never reads an
 * incomplete run as a pass unless told to.
 */
export function exitCodeOf(
  report: Pick<Report, 'checks' | 'aborted' | 'allowIncomplete'>,
  failOn: FailOn = 'must',
): 0 | 1 | 3 | 4 {
  if (failingChecks(report, failOn).length > 0) return EXIT.fail;
  if (report.aborted) return EXIT.stopped;
  if (unjudgedMust(report).length > 0 && !report.allowIncomplete) return EXIT.incomplete;
  return EXIT.pass;
}

/** The report as published: its verdict at the fail-on level, and whether INCOMPLETE was allowed. */
export function settled(report: Report, failOn: FailOn, allowIncomplete = false): Report {
  const verdict = verdictOf(report, failOn);
  const out: Report = { ...report, verdict };
  delete out.allowIncomplete;
  if (allowIncomplete && verdict === 'incomplete' && !report.aborted) out.allowIncomplete = true;
  return out;
}
