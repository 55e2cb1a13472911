// Creating a *valid* pet, with the category gap handled (§2.6: a server may know only some categories).
// A valid pet that is refused is re-sent with a category id the server is known to accept (one it
// accepted before, one seen in GET /pets, or --category-id). Accepted then: the refusal was about the
// category — recorded (OBSERVE), not failed. Refused again: the pet itself was refused — the caller
// fails it. With no known category there is nothing to compare with: the attempt is left undecided.
// Before either verdict the pet is tried once under an unused name (`retryWithFreshName`).
import type { Exchange } from '../core/exchange.ts';
import type { NewPet } from '../spec/contract.ts';
import { categoryPolicy, namePolicy } from './checks/policies.ts';
import { createRequest, type RunContext } from './context.ts';

export interface CreateAttempt {
  exchange: Exchange;
  /** The pet finally sent (its category may have been replaced by a known one). */
  sent: NewPet;
  undecided?: boolean;
}

const isRefusal = (status: number): boolean =>
  status >= 400 && status < 500 && status !== 401 && status !== 403 && status !== 429;

export function rememberCategory(ctx: RunContext, categoryId: number): void {
  const text = String(categoryId);
  if (!ctx.categories.known.includes(text)) ctx.categories.known.push(text);
}

export async function createValidPet(ctx: RunContext, pet: NewPet): Promise<CreateAttempt> {
  const fixed = ctx.categories.fixed;
  const sent = fixed === undefined ? pet : { ...pet, categoryId: fixed };
  const exchange = await ctx.send(createRequest(ctx, JSON.stringify(sent)));
  if (exchange.response.status === 201) {
    rememberCategory(ctx, sent.categoryId);
    return { exchange, sent };
  }
  if (!isRefusal(exchange.response.status)) return { exchange, sent };
  const known = fixed === undefined ? ctx.categories.known.find((k) => k !== String(sent.categoryId)) : undefined;
  if (known !== undefined) {
    const retry = { ...sent, categoryId: Number(known) };
    const second = await ctx.send(createRequest(ctx, JSON.stringify(retry)));
    if (second.response.status === 201) {
      ctx.categories.rejected.push(String(sent.categoryId));
      ctx.observe(categoryPolicy, `refuses some category ids (${exchange.response.status})`);
      return { exchange: second, sent: retry };
    }
    return (await retryWithFreshName(ctx, retry, second)) ?? { exchange: second, sent: retry };
  }
  const renamed = await retryWithFreshName(ctx, sent, exchange);
  if (renamed) return renamed;
  if (fixed !== undefined) return { exchange, sent };
  ctx.observe(categoryPolicy, 'a valid pet refused before any category id was known (undecided)');
  return { exchange, sent, undecided: true };
}

/**
 * A server may refuse a name that is already taken (§2.6 shows no rule on names; generated names repeat,
 * within a run and across runs). The same pet under a name no one has used is sent once more: accepted,
 * the refusal was about the name being taken (OBSERVE); refused again, the caller judges that answer.
 * The new name keeps the old one whole, so a name the server cannot take is still refused.
 */
async function retryWithFreshName(ctx: RunContext, pet: NewPet, refused: Exchange): Promise<CreateAttempt | undefined> {
  const renamed = { ...pet, name: `${pet.name}~${freshToken()}` };
  const exchange = await ctx.send(createRequest(ctx, JSON.stringify(renamed)));
  if (exchange.response.status !== 201) return undefined;
  rememberCategory(ctx, renamed.categoryId);
  ctx.observe(namePolicy, `refused a valid pet (${refused.response.status}), took it under an unused name`);
  return { exchange, sent: renamed };
}

let tokens = 0;
/** Unique in this process and, with the clock, across runs (replays differ only in this rescue path). */
export const freshToken = (): string => `${Date.now().toString(36)}${(tokens++).toString(36)}`;

/** A category id to put in bodies whose validity does not depend on it. */
export function someCategory(ctx: RunContext): number {
  return ctx.categories.fixed ?? Number(ctx.categories.known[0] ?? 1);
}

/** What lets the checks that need pets run when every valid pet was refused (a category table, GAPS.md). */
export const CATEGORY_FIX = 'pass --category-id N (an id the server knows), so that valid pets are created';
