// What every check can see during a run: the target, a `send` that is already paced, retried,
// budgeted and recorded, the pets petcert created, the category ids known to work, and the tally of
// gap behaviours (OBSERVE). Request builders live here so every check addresses the API one way.
import type { Exchange, HttpRequest, Send } from '../core/exchange.ts';
import type { CheckMeta } from '../report/check.ts';
import type { Pet } from '../spec/contract.ts';
import type { Plan } from '../spec/plans.ts';

export interface CreatedPet {
  /** The id as the server wrote it (decimal text: ids beyond 2^53 survive). */
  idText: string;
  /** What the 201 body said, parsed. */
  pet: Pet;
  exchange: Exchange;
}

export interface CategoryState {
  /** Category ids (decimal text) the server accepted, or the operator named with --category-id. */
  known: string[];
  /** Valid pets the server refused only because of their category (the same pet with a known one was accepted). */
  rejected: string[];
  /** --category-id: use only this id. */
  fixed?: number;
}

export interface RunContext {
  baseUrl: string;
  apiKey: string;
  send: Send;
  created: CreatedPet[];
  categories: CategoryState;
  /** Latest ceiling on Reset - Date, in seconds (the longest window: the day). */
  resetHorizonSeconds: number;
  /** The minute window (the plans file's, else the specification's): how fast a refilling limiter gives Remaining back. */
  minuteSeconds?: number;
  /** The key's plan, when the run was told it: X-RateLimit-Limit is then judged against its figures. */
  plan?: Plan;
  /** Count one occurrence of a behaviour for a check (the check itself is the handle: no string ids). */
  observe(check: CheckMeta, label: string): void;
  /** Waits on the run's clock (a check that needs the server's clock to move; bounded by the run's deadline). */
  sleep(ms: number): Promise<void>;
}

export type Operation = 'listPets' | 'createPet' | 'getPet' | 'other';

export function bearer(ctx: Pick<RunContext, 'apiKey'>): Record<string, string> {
  return { authorization: `Bearer ${ctx.apiKey}` };
}

/** Requests carrying exactly the configured credential, in the form §5 gives. */
export function usesValidKey(request: HttpRequest, apiKey: string): boolean {
  return request.headers['authorization'] === `Bearer ${apiKey}`;
}

/**
 * Without Accept-Encoding any content coding is acceptable (RFC 9110 §12.5.3), and a server may then
 * gzip its answers; petcert judges bodies as sent, so it asks for them uncoded.
 */
const ACCEPT = { accept: 'application/json', 'accept-encoding': 'identity' } as const;

export function listRequest(
  ctx: Pick<RunContext, 'baseUrl' | 'apiKey'>,
  query: string = '',
  headers = bearer(ctx),
): HttpRequest {
  return { method: 'GET', url: `${ctx.baseUrl}/pets${query ? `?${query}` : ''}`, headers: { ...ACCEPT, ...headers } };
}

export function createRequest(
  ctx: Pick<RunContext, 'baseUrl' | 'apiKey'>,
  body: string,
  headers = bearer(ctx),
): HttpRequest {
  return {
    method: 'POST',
    url: `${ctx.baseUrl}/pets`,
    headers: { ...ACCEPT, 'content-type': 'application/json', ...headers },
    body,
  };
}

export function getRequest(
  ctx: Pick<RunContext, 'baseUrl' | 'apiKey'>,
  idText: string,
  headers = bearer(ctx),
): HttpRequest {
  return { method: 'GET', url: `${ctx.baseUrl}/pets/${idText}`, headers: { ...ACCEPT, ...headers } };
}

/** The operation a request addresses, relative to the base URL. */
export function operationOf(baseUrl: string, request: HttpRequest): Operation {
  if (!request.url.startsWith(baseUrl)) return 'other';
  const path = request.url.slice(baseUrl.length).split('?')[0]!;
  if (path === '/pets')
    return request.method === 'GET' ? 'listPets' : request.method === 'POST' ? 'createPet' : 'other';
  if (/^\/pets\/[^/]*$/.test(path) && request.method === 'GET') return 'getPet';
  return 'other';
}

/** Query parameters of a request URL (last value wins, as most servers read them). */
export function queryOf(request: HttpRequest): URLSearchParams {
  const q = request.url.indexOf('?');
  return new URLSearchParams(q < 0 ? '' : request.url.slice(q + 1));
}
