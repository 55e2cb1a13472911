// Long runs report progress as events; the CLI renders them (bars on a TTY, plain lines in CI logs).
// Runners never write to the console themselves.
export interface ProgressEvent {
  /** A short name of the phase, e.g. "conform: create" or "quota free: minute". */
  phase: string;
  done: number;
  total?: number;
  /** Estimated ms until the phase ends, when the runner can tell (quota probes can: windows). */
  etaMs?: number;
  message?: string;
}

export type ProgressSink = (event: ProgressEvent) => void;

export const silentProgress: ProgressSink = () => {};
