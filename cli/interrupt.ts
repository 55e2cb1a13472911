// Ctrl-C, or a CI's time limit (SIGTERM, then SIGKILL seconds later: docs/decisions/004). What was judged until
// then is the user's evidence: the first signal stops the run (engines stop sending and waiting, k6
// children are stopped), the command writes the report of what was judged, marked INTERRUPTED, says
// where it is and exits 130 (SIGINT) / 143 (SIGTERM). A second signal exits at once.
import type { AbortCode, Report } from '../report/model.ts';

export type Caught = 'SIGINT' | 'SIGTERM';

/** 128 + the signal's number, as shells report a process a signal ended. */
export const SIGNAL_EXIT: Record<Caught, number> = { SIGINT: 130, SIGTERM: 143 };

export interface Interrupt {
  signal: AbortSignal;
  /** The signal caught, if any. */
  caught(): Caught | undefined;
  /** Stops listening (the signals' default behaviour is back). */
  dispose(): void;
}

interface SignalSource {
  on(event: Caught, listener: () => void): unknown;
  off(event: Caught, listener: () => void): unknown;
  exit(code: number): never;
}

/** Listens for SIGINT/SIGTERM for the length of one run. `say` tells the user what happens now. */
export function watchInterrupts(say: (line: string) => void, source: SignalSource = process): Interrupt {
  const controller = new AbortController();
  let caught: Caught | undefined;
  const on = (name: Caught) => () => {
    if (caught !== undefined) source.exit(SIGNAL_EXIT[name]);
    caught = name;
    say(
      `petcert: ${name}: stopping (nothing more is sent) and writing the report of what was judged so far; ` +
        `${name} again exits at once`,
    );
    // The signal's name is the abort's reason: a quota run's journal records which one ended it.
    controller.abort(name);
  };
  const listeners = { SIGINT: on('SIGINT'), SIGTERM: on('SIGTERM') };
  source.on('SIGINT', listeners.SIGINT);
  source.on('SIGTERM', listeners.SIGTERM);
  return {
    signal: controller.signal,
    caught: () => caught,
    dispose: () => {
      source.off('SIGINT', listeners.SIGINT);
      source.off('SIGTERM', listeners.SIGTERM);
    },
  };
}

const INTERRUPTED: AbortCode = 'INTERRUPTED';

/** The report of an interrupted run says so, whatever else stopped its engine in the meantime. */
export function markInterrupted(report: Report, caught: Caught): Report {
  const why = `interrupted by ${caught}: the checks not reached were not run (never a pass)`;
  const other = report.aborted && report.aborted.code !== INTERRUPTED ? report.aborted : undefined;
  const before = other ? ` (${other.code}: ${other.message})` : '';
  return { ...report, aborted: { code: INTERRUPTED, message: `${why}${before}` } };
}

/**
 * One run with SIGINT/SIGTERM caught: `run` gets the signal its engine stops on; the report is marked
 * when interrupted and published (`publish` returns the verdict's exit code, replaced by 130/143).
 */
export async function interruptible(
  say: (line: string) => void,
  run: (signal: AbortSignal) => Promise<Report>,
  publish: (report: Report) => number,
): Promise<number> {
  const interrupt = watchInterrupts(say);
  try {
    const report = await run(interrupt.signal);
    const caught = interrupt.caught();
    const code = publish(caught ? markInterrupted(report, caught) : report);
    return caught ? SIGNAL_EXIT[caught] : code;
  } finally {
    interrupt.dispose();
  }
}
