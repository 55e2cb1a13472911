// At most `n` requests in flight at once; the others queue in order. A slot is held until the request
// below it settles, answered or not.
import type { Layer } from './layer.ts';

export function slots(n: number): Layer {
  let free = n;
  const queue: Array<() => void> = [];
  const release = (): void => {
    const next = queue.shift();
    if (next) next();
    else free += 1;
  };
  const acquire = async (): Promise<void> => {
    if (free > 0) free -= 1;
    else await new Promise<void>((resolve) => queue.push(resolve));
  };
  return (next) => async (request) => {
    await acquire();
    try {
      return await next(request);
    } finally {
      release();
    }
  };
}
