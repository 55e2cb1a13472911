// Why a probe ends early, as errors the run catches (run.ts cutOf): a wait refused, or the 429 hold.

/** A wait longer than the cap, or past the run's bound: the probe ends and its open checks are skipped. */
export class WaitCapped extends Error {}

/** A send the 429 hold refused (send.ts): the probe is cut short, and so is every later probe on a key it keeps refusing. */
export class HeldBack extends WaitCapped {}

/** A send the 429 hold would make wait longer than any wait may take (`--max-wait`): not waited, the probe cut short. */
export class HoldTooLong extends WaitCapped {}

/** The hold refused the next send on its key, for 429s in a row or a wait too long: the caller's tries are over. */
export const refusedByHold = (error: unknown): boolean => error instanceof HeldBack || error instanceof HoldTooLong;
