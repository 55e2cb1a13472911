// Seeing every exchange that comes back (429s included, before any retry): the conformance runner judges
// each response here; a request that got no response is not an exchange and is not seen.
import type { Exchange } from './exchange.ts';
import type { Layer } from './layer.ts';

export const tap =
  (observe: (exchange: Exchange) => void): Layer =>
  (next) =>
  async (request) => {
    const exchange = await next(request);
    observe(exchange);
    return exchange;
  };
