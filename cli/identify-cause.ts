// Whether the identification's answers show a failure on this side (the client's network, trust or
// identity) rather than a wrong URL or a faulty service: its cause and fix, read from the transport's
// code or from what a TLS front answers in HTTP (nginx's 400 pages). Pure.
import type { TransportCode } from '../core/errors.ts';
import { CLIENT_CERT_FIX } from '../http/transport-error.ts';
import type { Observation } from '../spec/identity.ts';

export interface ClientSide {
  /** What happened, one line (the transport's message carries its own fix). */
  why: string;
  fix?: string;
  /** A base URL to suggest instead (https:// for a TLS port given http://). */
  suggest?: string;
  /** true when the base URL itself may be wrong (a DNS failure): the usual "Check --base-url" stays. */
  checkUrl: boolean;
}

/** Transport failures that are the client's configuration, never the URL's nor the service's. */
const CLIENT_SIDE: readonly TransportCode[] = ['TLS', 'PROXY', 'DNS'];

/** nginx's answers on a TLS port: a client certificate missing or refused, plain HTTP sent to it. */
const FRONT_PAGES: ReadonlyArray<{ page: RegExp; cause: (baseUrl: string) => Omit<ClientSide, 'checkUrl'> }> = [
  {
    page: /No required SSL certificate was sent/i,
    cause: () => ({
      why: 'the TLS front wants a client certificate (it answered 400 "No required SSL certificate was sent")',
      fix: CLIENT_CERT_FIX,
    }),
  },
  {
    page: /SSL certificate error/i,
    cause: () => ({
      why: 'the TLS front refused the client certificate given (it answered 400 "The SSL certificate error")',
      fix: 'give a client certificate signed by a CA the server trusts, with its key',
    }),
  },
  {
    page: /plain HTTP request was sent to HTTPS port/i,
    cause: (b) => ({
      why: 'the port speaks TLS and was sent plain HTTP (it answered 400 "The plain HTTP request was sent to HTTPS port")',
      suggest: b.replace(/^http:/, 'https:'),
    }),
  },
];

export function clientSideCause(baseUrl: string, observed: readonly Observation[]): ClientSide | undefined {
  const failed = observed.find((o) => o.error !== undefined && CLIENT_SIDE.includes(o.transport ?? 'OTHER'));
  if (failed) return { why: failed.error!.replace(/^\S+ \S+: /, ''), checkUrl: failed.transport === 'DNS' };
  for (const o of observed) {
    const front = o.response && FRONT_PAGES.find((f) => o.response!.status === 400 && f.page.test(o.response!.body));
    if (front) return { ...front.cause(baseUrl), checkUrl: false };
  }
  return undefined;
}
