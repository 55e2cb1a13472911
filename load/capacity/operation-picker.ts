// Which operation iteration i performs, on the k6 hot path. Apart from mix.ts (the parsing, which
// needs the plan table and so the contract) so that the k6 bundle's load VUs evaluate only this.
import type { Operation, OpsMix } from './mix.ts';

/**
 * A golden-ratio sequence against the cumulative weights, so every window of iterations holds the mix
 * closely without any shared state between VUs. The shares are worked out once.
 */
export function operationPicker(ops: OpsMix): (i: number) => Operation {
  const total = ops.list + ops.get + ops.create;
  const list = ops.list / total;
  const get = (ops.list + ops.get) / total;
  return (i) => {
    const u = (i * 0.6180339887498949) % 1;
    return u < list ? 'list' : u < get ? 'get' : 'create';
  };
}
