// What every accepted reading of "N requests per window" (spec/GAPS.md "Readings") says of a refusal: a
// fixed window at any phase, a rolling window and a bucket of N refilled at N per window all refuse a
// request only once N of the key's requests reached the limiter within one window's length before it (a
// bucket that took k < N in the last window refilled N over it and holds N − k). Fewer is outside every
// reading, whatever the limiter's model, and says so without naming a cause.
import type { Observation } from '../observation.ts';

const CLOCK_MARGIN_MS = 5;

/**
 * How many of `sent` (every request of the key since the first of them, on our clock) can have reached the
 * server within `windowMs` before `refusal` reached it, admitted or refused (a limiter may count its own
 * refusals; each try of one sent again after no response): request i only if the refusal was sent less than
 * a window after i was answered. Our clock alone bounds it, so no server clock or Date rounding enters.
 * Undefined when requests before the first of `sent` may be among them (the refusal was sent less than a
 * window after it).
 */
export function requestsWithinWindow(
  sent: readonly Observation[],
  refusal: Observation,
  windowMs: number,
): number | undefined {
  const start = Math.min(...sent.map((o) => o.sentLocal));
  if (!(refusal.sentLocal - start >= windowMs)) return undefined;
  // A few ms more: both clock readings are whole milliseconds, and a clock can step between them.
  const spanMs = windowMs + CLOCK_MARGIN_MS;
  return sent
    .filter(
      (o) => o !== refusal && refusal.sentLocal - o.receivedLocal < spanMs && o.sentLocal <= refusal.receivedLocal,
    )
    .reduce((n, o) => n + (o.ex?.tries ?? 1), 0);
}
