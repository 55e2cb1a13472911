// Before any judged request, every command asks whether the base URL serves the Animal Store at all
// (spec/identity.ts decides from the answers; this file sends them). Not the API → a report that says
// so (aborted UNREACHABLE: exit 3) with what was sent, what came back and the likely fix, instead of a
// run of failures blamed on the service.
import { TransportError, UnreachableError, type TransportCode } from '../core/errors.ts';
import type { HttpResponse, Send } from '../core/exchange.ts';
import { guard } from '../core/guard.ts';
import { redactText } from '../core/redact.ts';
import { VERSION } from '../core/version.ts';
import type { Network } from '../http/network.ts';
import { CANNOT_SUCCEED } from '../http/transport-error.ts';
import { createNodeTransport, DEFAULT_SEND_OPTIONS } from '../http/undici-send.ts';
import { clientSideCause, type ClientSide } from './identify-cause.ts';
import type { Report } from '../report/model.ts';
import {
  candidateBases,
  describeObservation,
  judgeIdentity,
  kindOf,
  nextProbe,
  OTHER_SCHEME,
  probeRequest,
  type Candidate,
  type Observation,
  type ProbeName,
  type Verdict,
} from '../spec/identity.ts';

export interface IdentifyOptions {
  /** Already parsed (core/base-url.ts). */
  baseUrl: string;
  key: string;
  /** Where the user wrote the base URL (`--base-url`, `targets.staging.baseUrl`): the fix names it. */
  field: string;
  timeoutMs?: number;
  /** Tests inject one; otherwise a transport of its own, closed before returning. */
  send?: Send;
  /** Proxy, CA, client certificate: the same the run will use. */
  network?: Network;
}

/** Per request to a nearby base URL (docs/decisions/003: the verdict within 2 s of the answers). */
export const CANDIDATE_TIMEOUT_MS = 1_000;

export interface Identified {
  verdict: Verdict;
  /** Every request sent, the ones with the key (they cost quota) among them. */
  requests: number;
  withKey: number;
  /** The answers to those sent with the key: their X-RateLimit-* tell the windows that counted them. */
  keyedAnswers: HttpResponse[];
  /** Set when the base URL does not serve the API: what to print and put in the report. */
  refusal?: string;
  /** Set when the refusal is a failure on this side (network, trust, identity), not the base URL's answer. */
  clientSide?: boolean;
}

/** What one identification sends with, and every request it sent (the count in the report). */
interface Asker {
  send: Send;
  key: string;
  spent: Observation[];
}

/**
 * One probe. A request with no HTTP answer is tried again until the one guard (core/guard.ts) calls the
 * target unreachable, except at a nearby candidate (`once`): one try tells whether it answers; and
 * except a failure no retry can mend (a certificate not trusted, a proxy refusing, a name no DNS knows).
 */
async function observe(a: Asker, probe: ProbeName, baseUrl: string, once = false): Promise<Observation> {
  const request = probeRequest(probe, baseUrl, a.key);
  let transport: TransportCode | undefined;
  for (;;) {
    try {
      const observation = { probe, request, response: (await a.send(request)).response };
      a.spent.push(observation);
      return observation;
    } catch (error) {
      if (!(error instanceof TransportError || error instanceof UnreachableError)) throw error;
      if (error instanceof TransportError) transport = error.transport;
      const failed = { probe, request, error: error.message, ...(transport ? { transport } : {}) };
      a.spent.push(failed);
      if (once || error instanceof UnreachableError || (transport && CANNOT_SUCCEED.includes(transport))) return failed;
    }
  }
}

interface Nearby {
  base: string;
  /** The answer that showed it, or why it was not asked. */
  evidence: string;
}

/**
 * A nearby base URL that answers like the API: listPets without the key first; with the key only when
 * that answer cannot tell (401 + Error comes from any path of a server that authenticates first). Only
 * the given host is asked: another origin (where a redirect points) is suggested, never sent a request.
 */
async function findNearby(a: Asker, baseUrl: string, given: readonly Observation[]): Promise<Nearby | undefined> {
  // 401 + Error where the given URL had no route (or no HTTP) at all is contrast enough for a suggestion.
  const contrast = given[0]!.error !== undefined || kindOf(given[0]!) === 'alien';
  for (const c of candidateBases(baseUrl, given)) {
    if (!c.probe) return { base: c.base, evidence: `${c.why} (not asked: another host)` };
    const found = await tryCandidate(a, c, contrast);
    if (found) return found;
  }
  return undefined;
}

async function tryCandidate(a: Asker, c: Candidate, contrast: boolean): Promise<Nearby | undefined> {
  const bare = await observe(a, 'list-without-key', c.base, true);
  const kind = kindOf(bare);
  if (kind === 'api' || (kind === 'plausible' && contrast))
    return { base: c.base, evidence: describeObservation(bare) };
  if (kind !== 'plausible' || c.why === OTHER_SCHEME) return undefined;
  const withKey = await observe(a, 'list', c.base, true);
  return kindOf(withKey) === 'api' ? { base: c.base, evidence: describeObservation(withKey) } : undefined;
}

const keyed = (o: Observation): boolean => o.request.headers.authorization !== undefined;
const counted = (spent: readonly Observation[]) => ({
  requests: spent.length,
  withKey: spent.filter(keyed).length,
  keyedAnswers: spent.filter(keyed).flatMap((o) => (o.response ? [o.response] : [])),
});

/** A failure on this side: its cause and fix, never "the service does not answer like the API". */
function clientSideRefusal(o: IdentifyOptions, observed: readonly Observation[], cause: ClientSide): string {
  const lines = [
    `${o.baseUrl} could not be asked from here: ${cause.why}; nothing was judged (a failure on this side, not the service's).`,
  ];
  lines.push(...observed.map((x) => `  sent ${describeObservation(x)}`));
  if (cause.fix) lines.push(`Fix: ${cause.fix}.`);
  if (cause.suggest) lines.push(`Did you mean ${o.field} ${cause.suggest}?`);
  if (cause.checkUrl)
    lines.push(`Check ${o.field}: the address under which GET /pets lists the pets, ending in /v1 (§1).`);
  return redactText(lines.join('\n'), [o.key]);
}

function refusal(
  o: IdentifyOptions,
  verdict: Verdict,
  observed: readonly Observation[],
  nearby: Nearby | undefined,
): string {
  const what = observed.some((x) => x.error)
    ? 'is unreachable: it gives'
    : 'does not answer like the Animal Store API v1:';
  const lines = [
    `${o.baseUrl} ${what} ${verdict.why}; nothing was judged.`,
    ...observed.map((x) => `  sent ${describeObservation(x)}`),
  ];
  if (nearby) lines.push(`Did you mean ${o.field} ${nearby.base}? There: ${nearby.evidence}.`);
  lines.push(`Check ${o.field}: the address under which GET /pets lists the pets, ending in /v1 (§1).`);
  return redactText(lines.join('\n'), [o.key]);
}

/** Asks the base URL; `refusal` is set when it does not serve the API (the run must not start). */
export async function identifyTarget(o: IdentifyOptions): Promise<Identified> {
  const timeoutMs = o.timeoutMs ?? DEFAULT_SEND_OPTIONS.timeoutMs;
  const network = o.network ? { network: o.network } : {};
  const transport = o.send ? undefined : createNodeTransport({ timeoutMs, ...network });
  const spent: Observation[] = [];
  try {
    const asker = { send: guard()(o.send ?? transport!.send), key: o.key, spent };
    const observed: Observation[] = [];
    // At most the four probes: nextProbe never asks one twice.
    for (let p = nextProbe(observed); p !== undefined; p = nextProbe(observed))
      observed.push(await observe(asker, p, o.baseUrl));
    const verdict = judgeIdentity(observed);
    if (verdict.identity !== 'not-animal-store') return { verdict, ...counted(spent) };
    const cause = clientSideCause(o.baseUrl, observed);
    if (cause) return { verdict, ...counted(spent), refusal: clientSideRefusal(o, observed, cause), clientSide: true };
    // A suggestion must not hold the verdict up: a candidate that does not answer quickly is not one.
    const quick = o.send
      ? undefined
      : createNodeTransport({ timeoutMs: Math.min(timeoutMs, CANDIDATE_TIMEOUT_MS), ...network });
    try {
      const nearby = await findNearby({ send: o.send ?? quick!.send, key: o.key, spent }, o.baseUrl, observed);
      return { verdict, ...counted(spent), refusal: refusal(o, verdict, observed, nearby) };
    } finally {
      await quick?.close();
    }
  } finally {
    await transport?.close();
  }
}

/** What the run says at start: identified or not, by which answer, at what cost. */
export function identityLine(baseUrl: string, i: Identified): string {
  const cost = `${i.requests} request${i.requests === 1 ? '' : 's'}, ${i.withKey} with the key`;
  if (i.verdict.identity === 'animal-store') return `Animal Store API v1 at ${baseUrl}: ${i.verdict.why} (${cost})`;
  if (i.verdict.identity === 'undecided') {
    return `Could not tell yet whether ${baseUrl} serves the Animal Store API v1: ${i.verdict.why} (${cost})`;
  }
  if (i.clientSide) return `Could not ask ${baseUrl} from here: a failure on this side, not the service's (${cost})`;
  return `Not the Animal Store API v1 at ${baseUrl} (${cost})`;
}

/** The report of a run refused before any judged request: no checks, aborted UNREACHABLE (exit 3), the requests it cost. */
export function refusedReport(kind: Report['kind'], target: string, i: Identified, at = new Date()): Report {
  const when = at.toISOString();
  return {
    tool: 'petcert',
    version: VERSION,
    kind,
    target,
    startedAt: when,
    finishedAt: when,
    seed: null,
    requests: i.requests,
    checks: [],
    aborted: { code: 'UNREACHABLE', message: i.refusal ?? i.verdict.why },
  };
}
