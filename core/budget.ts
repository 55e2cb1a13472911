// A run's request budget (retries included): once `spent()` reaches the limit less what is `reserved`
// for a later phase (read before every request), sends reject with `refuse`.
import type { Layer } from './layer.ts';

export interface BudgetOptions {
  limit: number;
  spent: () => number;
  reserved?: (() => number) | undefined;
  refuse: (reserved: number) => Error;
}

export const budget =
  (o: BudgetOptions): Layer =>
  (next) =>
  (request) => {
    const reserved = o.reserved?.() ?? 0;
    return o.spent() >= o.limit - reserved ? Promise.reject(o.refuse(reserved)) : next(request);
  };
