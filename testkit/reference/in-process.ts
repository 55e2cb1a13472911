// Test helpers: call an in-process app with a fake clock, read JSON bodies. Used by tests only.
import { createApp, type ReferenceOptions } from '../../reference/app.ts';
import type { AppResponse } from '../../reference/types.ts';

export interface FakeClock {
  now: () => number;
  set(ms: number): void;
  advance(ms: number): void;
}

export function fakeClock(startMs = Date.UTC(2030, 0, 1, 0, 0, 0)): FakeClock {
  let t = startMs;
  return { now: () => t, set: (ms) => void (t = ms), advance: (ms) => void (t += ms) };
}

export interface Caller {
  (
    method: string,
    path: string,
    init?: { key?: string | null; body?: string | Buffer; headers?: Record<string, string> },
  ): Promise<AppResponse>;
  key: string;
  keys: Record<string, string>;
}

/** An app with key "k" on `plan` (default free) and a caller that sends "Bearer k" unless told otherwise. */
export function inProcess(options: ReferenceOptions = {}, plan = 'free'): Caller {
  const app = createApp({ keys: { k: plan }, log: () => undefined, ...options });
  const call = ((method, path, init = {}) => {
    const headers: Record<string, string> = { ...init.headers };
    const key = init.key === undefined ? 'k' : init.key;
    if (key !== null) headers.authorization = `Bearer ${key}`;
    return app.handle({ method, path, headers, body: init.body ?? '' });
  }) as Caller;
  call.key = 'k';
  call.keys = app.keys;
  return call;
}

export const bodyOf = (res: AppResponse): unknown => JSON.parse(res.body);
export const rate = (res: AppResponse) => ({
  limit: Number(res.headers['x-ratelimit-limit']),
  remaining: Number(res.headers['x-ratelimit-remaining']),
  reset: Number(res.headers['x-ratelimit-reset']),
});
