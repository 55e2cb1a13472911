// The journal of a quota run: a header (what reproduces the run: plans, keys by label, probes, waits,
// the start on the local clock) and every exchange the probes' transport carried, in the order sent.
// JSON lines: the header first, one exchange a line. Keys never appear: a request names its key's label.
import type { TransportCode } from '../../core/errors.ts';
import { ConfigError } from '../../core/errors.ts';
import type { RunNetwork } from '../../report/model.ts';
import type { PlanTable } from '../../spec/plans.ts';
import type { Answer } from '../probes/answer.ts';
import { PROBE_NAMES, type ProbeName } from '../probes/checks.ts';

export const JOURNAL_FORMAT = 'petcert-quota-journal';
/** Raised whenever a field changes meaning; a journal of another version is refused, never guessed at. */
export const JOURNAL_VERSION = 1;
/** The file beside report.json. */
export const JOURNAL_FILE = 'journal.jsonl.gz';
/** Characters of a body kept: the probes read headers and status; a body is kept for the failures' evidence. */
export const BODY_CAP = 16_384;

export interface JournalHeader {
  format: typeof JOURNAL_FORMAT;
  version: number;
  /** The petcert version that recorded it. */
  petcert: string;
  /** Ends in /v1; request paths are relative to it. */
  baseUrl: string;
  plans: PlanTable;
  /** In the order given: the labels ("free", "free#2") follow from it. */
  keys: Array<{ label: string; plan: string }>;
  only: ProbeName[];
  maxWaitMs?: number;
  timeoutMs?: number;
  /** Local ms the run started at (its deadline counts from here). */
  startMs: number;
  /** Local ms past which the live run sent nothing. */
  deadline?: number;
  /** Per key label: requests its key sent before the probes (identifying the target), and their answers. */
  before: Record<string, { spent: number; answers: Answer[] }>;
  /** Every request sent before the probes, with a key or without (the report's request count has them). */
  requestsBefore: number;
  network?: RunNetwork;
  /**
   * Every reading of the clock the probes made, in order, each as the difference from the one before (the
   * first from startMs): a replay shows the probes these readings while they match its own time.
   */
  clockReads?: number[];
  /** Each wait of the probes, in the order asked: when it ended (ms after startMs) and its place among the events; null if it had not. */
  clockSleeps?: Array<[number, number] | null>;
  /**
   * The certification part this run was ("quota" of petcert certify): the re-judge names its checks and
   * series as the certify report did ("quota/quota.minute.exact[free]"). Absent for petcert quota.
   */
  part?: string;
  /** The signal that interrupted the live run (it exited 130 or 143): the exchanges it never sent are missing. */
  interrupted?: 'SIGINT' | 'SIGTERM';
}

export interface JournalEntry {
  /** Order sent, from 1. */
  seq: number;
  /** The key's label; null when the request carried none of the run's keys. */
  key: string | null;
  method: string;
  /** Path and query under the base URL ("/pets?limit=1"); the absolute URL when elsewhere. */
  path: string;
  /** Local ms. */
  sentAt: number;
  answeredAt: number;
  /** Its place among the run's events (answers and ends of waits, in the order they came). */
  arrived: number;
  status?: number;
  headers?: Record<string, string>;
  body?: string;
  /** The body was cut (by the transport's cap or BODY_CAP). */
  truncated?: boolean;
  /** No HTTP answer: the transport's error. */
  error?: { code: TransportCode; message: string };
}

export interface Journal {
  header: JournalHeader;
  entries: JournalEntry[];
}

export function journalText(journal: Journal): string {
  return [journal.header, ...journal.entries].map((line) => JSON.stringify(line)).join('\n') + '\n';
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isStrings = (v: unknown): v is Record<string, string> =>
  isRecord(v) && Object.values(v).every((x) => typeof x === 'string');

/** What is wrong with a header, or undefined. */
function headerProblem(h: Record<string, unknown>): string | undefined {
  if (h.format !== JOURNAL_FORMAT) return `its first line is not a ${JOURNAL_FORMAT} header`;
  if (h.version !== JOURNAL_VERSION)
    return `it is version ${JSON.stringify(h.version)} of the journal format; this petcert reads version ${JOURNAL_VERSION}`;
  if (typeof h.petcert !== 'string' || typeof h.baseUrl !== 'string') return 'its header lacks petcert or baseUrl';
  if (!isRecord(h.plans) || !isRecord(h.plans.windows) || !isRecord(h.plans.plans)) return 'its header lacks plans';
  if (!Array.isArray(h.keys) || h.keys.length === 0) return 'its header lists no keys';
  for (const k of h.keys as unknown[])
    if (!isRecord(k) || typeof k.label !== 'string' || typeof k.plan !== 'string')
      return 'its header has a key without label or plan';
  if (!Array.isArray(h.only) || !h.only.every((p) => (PROBE_NAMES as unknown[]).includes(p)))
    return 'its header lists an unknown probe';
  if (!isNumber(h.startMs)) return 'its header lacks startMs';
  for (const f of ['maxWaitMs', 'timeoutMs', 'deadline'])
    if (h[f] !== undefined && !isNumber(h[f])) return `its header's ${f} is not a number`;
  if (!isRecord(h.before) || !isNumber(h.requestsBefore)) return 'its header lacks before or requestsBefore';
  if (h.clockReads !== undefined && !(Array.isArray(h.clockReads) && h.clockReads.every(isNumber)))
    return "its header's clockReads are not numbers";
  if (
    h.clockSleeps !== undefined &&
    !(
      Array.isArray(h.clockSleeps) &&
      h.clockSleeps.every((s) => s === null || (Array.isArray(s) && s.length === 2 && s.every(isNumber)))
    )
  )
    return "its header's clockSleeps are not [ms, event] pairs";
  if (h.interrupted !== undefined && h.interrupted !== 'SIGINT' && h.interrupted !== 'SIGTERM')
    return "its header's interrupted is not SIGINT or SIGTERM";
  if (h.part !== undefined && (typeof h.part !== 'string' || h.part === '')) return "its header's part is not a name";
  return undefined;
}

function entryProblem(e: Record<string, unknown>, seq: number): string | undefined {
  if (e.seq !== seq) return `seq ${JSON.stringify(e.seq)} where ${seq} was next`;
  if (e.key !== null && typeof e.key !== 'string') return 'a key label that is not a string';
  if (typeof e.method !== 'string' || typeof e.path !== 'string') return 'no method or path';
  if (!isNumber(e.sentAt) || !isNumber(e.answeredAt) || e.answeredAt < e.sentAt)
    return 'sentAt/answeredAt out of order';
  if (!isNumber(e.arrived)) return 'no arrival order';
  if (e.error !== undefined)
    return isRecord(e.error) && typeof e.error.code === 'string' && typeof e.error.message === 'string'
      ? undefined
      : 'a malformed error';
  if (!isNumber(e.status) || !isStrings(e.headers) || typeof e.body !== 'string') return 'no status, headers or body';
  return undefined;
}

/** Parses a journal's text; anything malformed is a ConfigError naming the line (exit 2). */
export function parseJournal(text: string, source: string): Journal {
  const lines = text.split('\n').filter((line, i, all) => line !== '' || i < all.length - 1);
  const bad = (line: number, why: string) =>
    new ConfigError(`is not a journal petcert can re-judge: line ${line}: ${why}`, source);
  const parsed = lines.map((line, i) => {
    try {
      return JSON.parse(line) as unknown;
    } catch (error) {
      throw bad(i + 1, `not JSON (${(error as Error).message})`);
    }
  });
  const [header, ...rest] = parsed;
  if (!isRecord(header)) throw bad(1, 'no header');
  const problem = headerProblem(header);
  if (problem) throw bad(1, problem);
  rest.forEach((e, i) => {
    const why = isRecord(e) ? entryProblem(e, i + 1) : 'not an object';
    if (why) throw bad(i + 2, why);
  });
  return { header: header as unknown as JournalHeader, entries: rest as JournalEntry[] };
}
