// Waiting out a 429: honour Retry-After; while 429s persist, back off exponentially with a cap and give
// up after a bounded number of tries (§8.3 rules 2–3: hammering after 429 risks a ban of the key).
import { backoffDelayMs } from '../../../core/backoff.ts';
import { waitFor, type ProbeRun } from '../context.ts';
import type { Observation } from '../observe.ts';
import { observe } from '../request.ts';
import { refusedByHold } from '../cut.ts';

export const BACKOFF = { baseMs: 1000, maxAttempts: 4 } as const;

/**
 * The next try, or undefined when the hold (send.ts) stops the key for its 429s in a row, or would make it
 * wait longer than any wait may take: each refusal so far came after waiting what the last asked, which is
 * the evidence of no recovery these tries were after.
 */
async function heldOrObserved(run: ProbeRun, refusals: readonly Observation[]): Promise<Observation | undefined> {
  try {
    return await observe(run);
  } catch (error) {
    if (refusedByHold(error) && refusals.length > 0) return undefined;
    throw error;
  }
}

export interface Retried {
  admitted?: Observation;
  /** 429s met before the admission (or before giving up). */
  refusals: Observation[];
}

/**
 * After `first429`, waits `initialWaitMs`, then retries with backoff until admitted or out of attempts.
 * Retry-After beyond `maxWaitMs` is not honoured blindly (it was judged already); the cap applies.
 * `stopOn`: a refusal that ends the tries at once, for the caller to wait out as it must.
 */
export async function retryUntilAdmitted(
  run: ProbeRun,
  initialWaitMs: number,
  maxWaitMs: number,
  stopOn?: (o: Observation) => boolean,
): Promise<Retried> {
  const refusals: Observation[] = [];
  await waitFor(run.ctx, Math.min(initialWaitMs, maxWaitMs), 'the wait Retry-After asks for');
  for (let attempt = 0; attempt < BACKOFF.maxAttempts; attempt++) {
    const o = await heldOrObserved(run, refusals);
    if (!o) return { refusals };
    if (o.admitted) return { admitted: o, refusals };
    refusals.push(o);
    // A refusal the caller waits out otherwise (a day quota's 429: no backoff of minute length ends it).
    if (stopOn?.(o)) return { refusals };
    if (attempt + 1 < BACKOFF.maxAttempts)
      await waitFor(
        run.ctx,
        Math.min(
          maxWaitMs,
          backoffDelayMs(attempt, o.retryAfter?.seconds, { baseMs: BACKOFF.baseMs, capMs: maxWaitMs }),
        ),
        'a backoff after a 429',
      );
  }
  return { refusals };
}
