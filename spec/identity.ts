// Is this the Animal Store at all? Decided from a few requests before any judged one (docs/decisions/003), so
// that a wrong base URL is named as such (exit 3) instead of failing every check of a service that is
// not there. Pure: the requests to send, what each answer proves, the verdict and the nearby base URLs
// worth trying; the CLI sends them (cli/identify.ts).
//
// What each answer proves:
// - listPets answering 200 with Pets, or createPet answering 400 with an Error body to `{}` (§4.2 rule
//   1): only this API answers so — the base URL is right, whatever else is broken.
// - 401 with an Error body, 429, a 5xx with an Error body: what this API may answer, but not proof. A
//   server that authenticates before routing (the reference server does: GAPS.md "New versions")
//   answers 401 + Error under ANY path of its origin, a wrong prefix included; only a request with
//   the key tells a route from no route.
// - a redirect, 404/405/410/501, an HTML or other non-JSON page, JSON of another shape: no operation
//   of this API answers so (it never redirects; its routes exist; its bodies are JSON of §2's shapes).
// The base URL is refused only when two operations answer like that (listPets and createPet: one
// operation's defect, e.g. a broken route, is a FAIL for the checks to report, never a wrong URL).
import { joinUrl, mediaType, parseJson, type HttpRequest, type HttpResponse } from '../core/exchange.ts';
import type { TransportCode } from '../core/errors.ts';
import { isApiError, isPets } from './validators.ts';

export type ProbeName = 'list-without-key' | 'create-without-key' | 'list' | 'create-invalid';

/** One identification request and what came back (a response, or why there was none). */
export interface Observation {
  probe: ProbeName;
  request: HttpRequest;
  response?: HttpResponse;
  /** The transport's message when no HTTP response came (refused, TLS, timeout…), and its kind. */
  error?: string;
  transport?: TransportCode;
}

/**
 * `api`: only this API answers so · `plausible`: this API may · `foreign`/`alien`: it never does
 * (`alien`: not even as a refusal, so two of them settle it without the key).
 */
export type Kind = 'api' | 'plausible' | 'foreign' | 'alien';

export interface Classified {
  kind: Kind;
  why: string;
}

export type Verdict =
  | { identity: 'animal-store'; why: string }
  | { identity: 'undecided'; why: string }
  | { identity: 'not-animal-store'; why: string };

const WITH_KEY: readonly ProbeName[] = ['list', 'create-invalid'];
const withKey = (probe: ProbeName): boolean => WITH_KEY.includes(probe);
const isCreate = (probe: ProbeName): boolean => probe === 'create-without-key' || probe === 'create-invalid';

/** A probe's request: listPets asks one pet (`limit=1`); createPet sends `{}`, which §4.2 refuses (400): nothing is created. */
export function probeRequest(probe: ProbeName, baseUrl: string, key: string): HttpRequest {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (withKey(probe)) headers.authorization = `Bearer ${key}`;
  if (!isCreate(probe)) return { method: 'GET', url: joinUrl(baseUrl, '/pets?limit=1'), headers };
  const json = { ...headers, 'content-type': 'application/json' };
  return { method: 'POST', url: joinUrl(baseUrl, '/pets'), headers: json, body: '{}' };
}

const REDIRECT = (s: number): boolean => s >= 300 && s < 400;
const NO_ROUTE = [404, 405, 410, 501];

/** The body as JSON whatever its Content-Type: a wrong media type is a defect the checks report, not another service. */
function jsonBody(response: HttpResponse): { json: boolean; value?: unknown } {
  const parsed = parseJson(response.body);
  return parsed.ok ? { json: true, value: parsed.value } : { json: false };
}

const shapeOf = (body: { json: boolean }): string =>
  body.json ? 'JSON of another shape than Error (§2.5)' : 'a body that is not JSON';

/** What one answer proves about the base URL (see the top of this file). */
export function classify(probe: ProbeName, response: HttpResponse): Classified {
  const { status } = response;
  const body = jsonBody(response);
  const error = body.json && isApiError(body.value);
  const to = response.headers.location ? ` to ${response.headers.location}` : '';
  if (REDIRECT(status)) return { kind: 'alien', why: `a redirect (${status}${to}): this API never redirects` };
  if (NO_ROUTE.includes(status)) return { kind: 'alien', why: `${status}: no such route here` };
  if (!isCreate(probe) && status === 200 && body.json && isPets(body.value)) {
    return { kind: 'api', why: 'a list of pets (§2.4)' };
  }
  if (isCreate(probe) && status === 400 && error) {
    return { kind: 'api', why: 'the Error of §4.2 rule 1 for a pet without name and categoryId' };
  }
  if (status === 429) return { kind: 'plausible', why: 'rate-limited (429)' };
  if (status >= 500) {
    // An Error body: this API failing. Anything else: a proxy's or gateway's page, the API not behind it.
    if (error) return { kind: 'plausible', why: `${status} with an Error body` };
    return { kind: 'alien', why: `${status} with ${shapeOf(body)}: a proxy's or gateway's error page` };
  }
  if ([400, 401, 403].includes(status)) {
    // A refusal in another shape: this API's bodies are Errors, but a real one with a broken 401 body
    // must not be called absent on that alone (only an answer with the key decides then).
    if (error) return { kind: 'plausible', why: `${status} with an Error body` };
    return { kind: 'foreign', why: `${status} with ${shapeOf(body)}` };
  }
  if (!body.json)
    return { kind: 'alien', why: `${status} with a ${mediaType(response.headers) ?? 'body'} page, not JSON` };
  // JSON of another shape (another API's list, or this one's with broken items): the key probes decide.
  return {
    kind: 'foreign',
    why: `${status} with JSON that is not what ${isCreate(probe) ? 'createPet' : 'listPets'} answers`,
  };
}

/** What one observation proves (undefined: no HTTP answer). */
export const kindOf = (o: Observation): Kind | undefined =>
  o.response ? classify(o.probe, o.response).kind : undefined;
const outsider = (k: Kind | undefined): boolean => k === 'foreign' || k === 'alien';

/**
 * The next probe, or undefined when the verdict is in. Without the key first (free of quota): two
 * operations that both answer `alien` settle it. Otherwise listPets with the key, then createPet with
 * the key only when listPets did not answer like this API.
 */
export function nextProbe(observed: readonly Observation[]): ProbeName | undefined {
  const seen = (p: ProbeName) => observed.find((o) => o.probe === p);
  if (observed.some((o) => o.error !== undefined || kindOf(o) === 'api')) return undefined;
  const bare = seen('list-without-key');
  if (!bare) return 'list-without-key';
  const bareCreate = seen('create-without-key');
  if (kindOf(bare) === 'alien' && !bareCreate) return 'create-without-key';
  if (bareCreate && kindOf(bare) === 'alien' && kindOf(bareCreate) === 'alien') return undefined;
  const list = seen('list');
  if (!list) return 'list';
  if (!outsider(kindOf(list))) return undefined;
  return seen('create-invalid') ? undefined : 'create-invalid';
}

export function judgeIdentity(observed: readonly Observation[]): Verdict {
  const failed = observed.find((o) => o.error !== undefined);
  if (failed) return { identity: 'not-animal-store', why: 'no HTTP answer' };
  const api = observed.find((o) => kindOf(o) === 'api');
  if (api) {
    return {
      identity: 'animal-store',
      why: `${describeProbe(api.probe)} answered ${classify(api.probe, api.response!).why}`,
    };
  }
  const both = (a: ProbeName, b: ProbeName, test: (k: Kind | undefined) => boolean) => {
    const x = observed.find((o) => o.probe === a);
    const y = observed.find((o) => o.probe === b);
    return x !== undefined && y !== undefined && test(kindOf(x)) && test(kindOf(y));
  };
  if (
    both('list-without-key', 'create-without-key', (k) => k === 'alien') ||
    both('list', 'create-invalid', outsider)
  ) {
    return { identity: 'not-animal-store', why: 'neither listPets nor createPet answers like this API here' };
  }
  const why =
    'no answer proved or disproved this API (e.g. the key was refused, or rate-limited); the checks will judge';
  return { identity: 'undecided', why };
}

export function describeProbe(probe: ProbeName): string {
  const op = isCreate(probe) ? 'POST /pets {}' : 'GET /pets?limit=1';
  return `${op} ${withKey(probe) ? 'with the key' : 'without a key'}`;
}

/** One line of what was sent and what came back; the key is never in it (only "with the key"). */
export function describeObservation(o: Observation): string {
  const payload = o.request.body ? ` ${o.request.body}` : '';
  const sent = `${o.request.method} ${o.request.url}${payload} (${withKey(o.probe) ? 'with the key' : 'no key'})`;
  if (!o.response) return `${sent} → no answer: ${o.error ?? 'unknown'}`;
  const body = o.response.body.replace(/\s+/g, ' ').trim();
  const shown = body.length > 100 ? `${body.slice(0, 100)}…` : body;
  const type = o.response.headers['content-type'] ?? 'no Content-Type';
  return `${sent} → ${o.response.status} ${type}${shown ? ` ${shown}` : ''}: ${classify(o.probe, o.response).why}`;
}

export interface Candidate {
  base: string;
  /** Same host and port: worth a request (never with the key to another origin; see cli/identify.ts). */
  probe: boolean;
  why: string;
}

/** The candidate that swaps http and https, told apart by cli/identify.ts, which never sends it the key. */
export const OTHER_SCHEME = 'the other scheme on the same port';

/**
 * Base URLs near a refused one that may serve the API, most likely first: where a redirect points,
 * the other scheme when there was no HTTP answer (TLS to a plain port, or the reverse), the path with
 * leading segments removed (/api/v1 → /v1), or `/api` added to a bare /v1.
 */
export function candidateBases(baseUrl: string, observed: readonly Observation[], max = 3): Candidate[] {
  const url = new URL(baseUrl);
  const out: Candidate[] = [];
  const add = (base: string | undefined, why: string) => {
    if (base === undefined || base === baseUrl || out.some((c) => c.base === base)) return;
    out.push({ base, probe: new URL(base).host === url.host, why });
  };
  for (const o of observed) add(redirectBase(o), `${o.request.url} redirects there`);
  const failed = observed.find((o) => o.error !== undefined);
  // No HTTP at all: another path cannot help; the other scheme can, unless nothing listens or answers.
  if (failed) {
    const swapped = `${url.protocol === 'https:' ? 'http:' : 'https:'}//${url.host}${url.pathname}`;
    const nothingThere = ['CONNECTION_REFUSED', 'TIMEOUT', 'DNS'].includes(failed.transport ?? 'OTHER');
    if (!nothingThere) add(swapped, OTHER_SCHEME);
    return out.slice(0, max);
  }
  const segments = url.pathname.split('/').filter(Boolean);
  for (let i = 1; i < segments.length; i += 1)
    add(`${url.origin}/${segments.slice(i).join('/')}`, 'the path without its prefix');
  if (segments.length === 1) add(`${url.origin}/api/${segments[0]}`, 'the path under /api');
  return out.slice(0, max);
}

/** A redirect's Location as a base URL, when it points at the same operation elsewhere (…/v1/pets). */
function redirectBase(o: Observation): string | undefined {
  const location = o.response && REDIRECT(o.response.status) ? o.response.headers.location : undefined;
  if (!location) return undefined;
  try {
    const to = new URL(location, o.request.url);
    const base = to.pathname.replace(/\/+$/, '').replace(/\/pets$/, '');
    return base.endsWith('/v1') ? `${to.origin}${base}` : undefined;
  } catch {
    return undefined;
  }
}
