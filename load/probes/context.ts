// What every probe gets: the one `send`, a clock, the server's clock estimate and where samples go.
// Pure: the same probes run under Node (undici) and inside k6 (k6/http).
import type { Clock } from '../../core/clock.ts';
import type { Send } from '../../core/exchange.ts';
import type { ProgressSink } from '../../core/progress.ts';
import type { Sample } from '../../report/model.ts';
import type { Plan, Windows } from '../../spec/plans.ts';
import { createServerClock, type ServerClock } from '../../spec/ratelimit.ts';
import type { Findings } from './findings.ts';

export interface ProbeContext {
  send: Send;
  clock: Clock;
  /** Ends in /v1. */
  baseUrl: string;
  windows: Windows;
  serverClock: ServerClock;
  progress: ProgressSink;
  /** Probe series name → samples (server ms). */
  series: Record<string, Sample[]>;
}

export interface KeyUnderTest {
  plan: Plan;
  key: string;
}

/** One key in one probe: where its findings and samples go. */
export interface ProbeRun {
  ctx: ProbeContext;
  k: KeyUnderTest;
  f: Findings;
  seriesName: string;
}

export function createContext(options: Omit<ProbeContext, 'serverClock' | 'series'> & { serverClock?: ServerClock }): ProbeContext {
  return { ...options, serverClock: options.serverClock ?? createServerClock(), series: {} };
}

/** Wait margin past a server-time instant: covers the server's own processing and rounding. */
export const MARGIN_MS = 40;

/** Sleeps until the server's clock has passed `serverMs` (judged by its Date headers, never our clock alone). */
export async function sleepUntilServer(ctx: ProbeContext, serverMs: number): Promise<void> {
  const local = ctx.serverClock.toLocalNotBefore(serverMs + MARGIN_MS);
  const wait = (local ?? ctx.clock.now()) - ctx.clock.now();
  if (wait > 0) await ctx.clock.sleep(wait);
}

export function serverNow(ctx: ProbeContext): number {
  return ctx.serverClock.toServer(ctx.clock.now()) ?? ctx.clock.now();
}
