// Waiting after a 429: exponential backoff from a base, capped, and never shorter than Retry-After
// asks (§8.3 rules 2–3: hammering after a 429 risks a ban of the key). The conformance runner and the
// quota probes both wait this way.

/** Delay before retry `attempt` (0-based) after a 429 that asked for `retryAfterSeconds`. */
export function backoffDelayMs(
  attempt: number,
  retryAfterSeconds: number | undefined,
  o: { baseMs: number; capMs: number },
): number {
  return Math.max(Math.min(o.capMs, o.baseMs * 2 ** attempt), (retryAfterSeconds ?? 0) * 1000);
}
