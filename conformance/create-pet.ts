// Creating a *valid* pet, with the category gap handled (§2.6: a server may know only some categories).
// A valid pet that is refused is re-sent with a category id the server is known to accept (one it
// accepted before, one seen in GET /pets, or --category-id). Accepted then: the refusal was about the
// category — recorded (OBSERVE), not failed. Refused again: the pet itself was refused — the caller
// fails it. With no known category there is nothing to compare with: the attempt is left undecided.
import type { Exchange } from '../core/exchange.ts';
import type { NewPet } from '../spec/contract.ts';
import { createRequest, type RunContext } from './context.ts';

export interface CreateAttempt {
  exchange: Exchange;
  /** The pet finally sent (its category may have been replaced by a known one). */
  sent: NewPet;
  undecided?: boolean;
}

const isRefusal = (status: number): boolean => status >= 400 && status < 500 && status !== 401 && status !== 403 && status !== 429;

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
  if (fixed !== undefined || !isRefusal(exchange.response.status)) return { exchange, sent };
  const known = ctx.categories.known.find((k) => k !== String(sent.categoryId));
  if (known === undefined) {
    ctx.observe('create.category-policy', 'a valid pet refused before any category id was known (undecided)');
    return { exchange, sent, undecided: true };
  }
  const retry = { ...sent, categoryId: Number(known) };
  const second = await ctx.send(createRequest(ctx, JSON.stringify(retry)));
  if (second.response.status === 201) {
    ctx.categories.rejected.push(String(sent.categoryId));
    ctx.observe('create.category-policy', `refuses some category ids (${exchange.response.status})`);
  }
  return { exchange: second, sent: retry };
}

/** A category id to put in bodies whose validity does not depend on it. */
export function someCategory(ctx: RunContext): number {
  return ctx.categories.fixed ?? Number(ctx.categories.known[0] ?? 1);
}
