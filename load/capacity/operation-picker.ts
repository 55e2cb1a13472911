// Which operation iteration i performs, on the k6 hot path. Apart from mix.ts (the parsing, which
// needs the plan table and so the contract) so that the k6 bundle's load VUs evaluate only this.
import type { Operation, OpsMix } from './mix.ts';

/** The mix's cumulative shares: below `list` a list, below `get` a get, else a create. */
export interface OperationCuts {
  list: number;
  get: number;
}

/** Worked out once per run (the capacity bundle: in its cold path, so a load VU holds no closure). */
export function operationCuts(ops: OpsMix): OperationCuts {
  const total = ops.list + ops.get + ops.create;
  return { list: ops.list / total, get: (ops.list + ops.get) / total };
}

/**
 * A golden-ratio sequence against the cumulative shares, so every window of iterations holds the mix
 * closely without any shared state between VUs.
 */
export function operationOf(i: number, cuts: OperationCuts): Operation {
  const u = (i * 0.6180339887498949) % 1;
  return u < cuts.list ? 'list' : u < cuts.get ? 'get' : 'create';
}
