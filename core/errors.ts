// Every error petcert raises on purpose, each with a stable code (the undici pattern): callers branch on
// `code`, people read `message`. Anything else that is thrown is a bug in petcert itself.

export type TransportCode =
  | 'CONNECTION_REFUSED'
  | 'CONNECTION_RESET'
  | 'TIMEOUT'
  | 'DNS'
  | 'PROTOCOL'
  /** The TLS handshake failed: a certificate not trusted or not for the host, a client certificate wanted. */
  | 'TLS'
  /** The proxy refused the request (407, 403), could not reach the target, or could not be reached. */
  | 'PROXY'
  | 'OTHER';

export class PetcertError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** Bad CLI flags, config or plans file: exit 2. `field` names what to fix. */
export class ConfigError extends PetcertError {
  constructor(
    message: string,
    readonly field?: string,
  ) {
    super('CONFIG', field ? `${field}: ${message}` : message);
  }
}

/** A request that produced no HTTP response. */
export class TransportError extends PetcertError {
  constructor(
    readonly transport: TransportCode,
    message: string,
  ) {
    super(`TRANSPORT_${transport}`, message);
  }
}

/** The target is unreachable or does not answer like an HTTP API: exit 3. */
export class UnreachableError extends PetcertError {
  constructor(message: string) {
    super('UNREACHABLE', message);
  }
}

/** The run stopped on purpose (too many 429s, budget, run timeout): the report says why. */
export class AbortRunError extends PetcertError {
  constructor(
    readonly reason: 'RATE_LIMITED' | 'BUDGET' | 'RUN_TIMEOUT' | 'TRANSPORT' | 'INTERRUPTED',
    message: string,
  ) {
    super(`ABORT_${reason}`, message);
  }
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
