// What makes two failures of one check the same defect (docs/decisions/002): the operation (method and route
// template: the path with its ids as {id}, the query's names without their values), the status
// answered, and what was wrong (the message with its variable parts — quoted values, ids, numbers —
// normalised). The ledger keeps one example of every cause before a second of any, so a team sees all
// its defects in one run. A Finding may name its cause itself when the check knows better.
import type { Exchange } from '../core/exchange.ts';
import { contract } from '../spec/contract.ts';
import type { Finding } from './check.ts';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/** A path segment that names one resource rather than a route: digits, a UUID, a long hex or token. */
const isIdSegment = (segment: string): boolean =>
  /^-?\d+$/.test(segment) || /^[0-9a-f]{8}-[0-9a-f]{4}-/i.test(segment) || /^[0-9a-f]{16,}$/i.test(segment);

/** The contract's path templates, longest first: a concrete path's tail is named by the one it matches. */
const TEMPLATES = Object.keys(contract.paths)
  .sort((a, b) => b.length - a.length)
  .map((template) => ({ template, tail: new RegExp(`${template.replace(/\{[^}]+\}/g, '[^/]+')}$`) }));

/** The path under its contract template ("/v1/pets/abc" → "/v1/pets/{petId}"), else with id-like segments as {id}. */
function templated(path: string): string {
  const known = TEMPLATES.find((t) => t.tail.test(path));
  if (known) return path.replace(known.tail, known.template);
  return path
    .split('/')
    .map((s) => (isIdSegment(s) ? '{id}' : s))
    .join('/');
}

/**
 * "GET /v1/pets/{petId}?limit&status": the route, whatever concrete id or query value was sent. Split by
 * hand, not with URL: the k6 runtime (sobek) has no URL, and this runs in the k6 probe scripts too.
 */
export function routeOf(exchange: Pick<Exchange, 'request'>): string {
  const { method, url } = exchange.request;
  const [beforeQuery = '', search = ''] = url.split('#')[0]!.split('?', 2);
  const path = beforeQuery.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '') || '/';
  const names = search
    .split('&')
    .filter(Boolean)
    .map((pair) => pair.split('=')[0]!);
  const query = [...new Set(names)].join('&');
  return `${method.toUpperCase()} ${templated(path)}${query ? `?${query}` : ''}`;
}

/** The message with its variable parts replaced: quoted values, UUIDs, then every number. */
export function messageShape(message: string): string {
  return message
    .replace(/"(?:[^"\\]|\\.)*"/g, '"…"')
    .replace(/'(?:[^'\\]|\\.)*'/g, "'…'")
    .replace(UUID, 'ID')
    .replace(/-?\d+(?:\.\d+)?(?:e[+-]?\d+)?/gi, 'N');
}

/** The finding's cause: its own when it names one, else operation × status × message shape. */
export function causeOf(finding: Finding): string {
  if (finding.cause !== undefined) return finding.cause;
  const ex = finding.exchange;
  const where = ex ? `${routeOf(ex)} → ${ex.response.status}` : '(no exchange)';
  return `${where}: ${messageShape(finding.message)}`;
}
