// Globals the k6 runtime provides that @types/k6 does not declare (k6 ≥ 0.43 has global timers).
declare const console: {
  log(...args: unknown[]): void;
  warn(...args: unknown[]): void;
  error(...args: unknown[]): void;
};
// eslint-disable-next-line @typescript-eslint/no-explicit-any
declare function setTimeout(callback: (...args: any[]) => void, ms?: number): number;
