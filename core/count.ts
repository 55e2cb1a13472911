// Counting the requests handed to the transport (answered or not): the report's `requests`, and what a
// budget spends.
import type { Layer } from './layer.ts';

export interface Counter {
  layer: Layer;
  count(): number;
}

export function counter(): Counter {
  let n = 0;
  return {
    layer: (next) => (request) => {
      n += 1;
      return next(request);
    },
    count: () => n,
  };
}
