// One request's default deadline (connect, headers and body), for every transport: undici under Node,
// k6/http in the scripts. The specification names none; 10 s is long for an API that answers in
// milliseconds, short enough that a dead target costs a few of them (core/guard.ts), not minutes.
export const DEFAULT_REQUEST_TIMEOUT_MS = 10_000;
