// The reference server called in-process as a `Send`, on a fake clock shared by server and probes
// (the server's clock skewed, so a probe that trusts its own clock instead of Date fails the tests).
import { lowerCaseHeaders, type Send } from '../../core/exchange.ts';
import { createApp, type ReferenceOptions } from '../../reference/app.ts';
import type { AppResponse } from '../../reference/types.ts';
import { createFakeClock, type FakeClock } from './fake-clock.ts';
import { silentProgress } from '../../core/progress.ts';
import { createContext, type ProbeContext } from '../../load/probes/context.ts';
import type { Windows } from '../../spec/plans.ts';

export interface InProcessTarget {
  send: Send;
  clock: FakeClock;
  baseUrl: string;
  keys: Record<string, string>;
  /** Requests sent so far. */
  count(): number;
}

/** 2030-01-01T00:00:00.000Z plus an odd offset, so windows never start where the test starts. */
export const FAKE_START_MS = Date.UTC(2030, 0, 1) + 12_345_678;

/** Rewrites a response the way a hostile server would (serverNowMs: the server's clock at the answer). */
export type ResponseEdit = (res: AppResponse, serverNowMs: number) => AppResponse;

export function inProcessTarget(
  options: ReferenceOptions & { skewMs?: number; startMs?: number; edit?: ResponseEdit } = {},
): InProcessTarget {
  const clock = createFakeClock(options.startMs ?? FAKE_START_MS);
  const skew = options.skewMs ?? 37 * 60_000 + 321;
  const app = createApp({ ...options, now: () => clock.now() + skew });
  let n = 0;
  const baseUrl = 'http://127.0.0.1:1/v1';
  const send: Send = (request) =>
    clock.busy(async () => {
      n++;
      const sentAt = clock.now();
      const path = request.url.slice(baseUrl.length - '/v1'.length);
      const answer = await app.handle({
        method: request.method,
        path,
        headers: request.headers,
        body: request.body ?? '',
      });
      const res = options.edit ? options.edit(answer, clock.now() + skew) : answer;
      return {
        request,
        response: { status: res.status, headers: lowerCaseHeaders(res.headers), body: res.body },
        sentAt,
        durationMs: clock.now() - sentAt,
      };
    });
  return { send, clock, baseUrl, keys: app.keys, count: () => n };
}

/** A probe context on the target, its clock and windows, no progress printed: `extra` adds or overrides options. */
export const contextOn = (
  t: InProcessTarget,
  windows: Windows,
  extra: Partial<Parameters<typeof createContext>[0]> = {},
): ProbeContext =>
  createContext({ send: t.send, clock: t.clock, baseUrl: t.baseUrl, windows, progress: silentProgress, ...extra });
