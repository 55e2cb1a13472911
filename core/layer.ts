// Send built from layers (undici's interceptors): each cross-cutting concern — deadline, budget, slots,
// pacing, guard, count, tap, 429 retry, transport retry — is one function that gets the next Send and
// returns one, tested alone. A runner's Send is one line: `stack(transport, a, b, c)`.
import type { Send } from './exchange.ts';

export type Layer = (next: Send) => Send;

/** `stack(base, a, b)` is `a(b(base))`: the first layer listed is the outermost, the one a caller meets first. */
export const stack = (base: Send, ...layers: readonly Layer[]): Send =>
  layers.reduceRight<Send>((next, layer) => layer(next), base);
