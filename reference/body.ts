// §4.2: reading a NewPet from the request body. Valid UTF-8 → JSON → schema (spec/validators.ts) →
// exact int64 categoryId → the server's own gap choices (name length, unknown fields, categories).
import { parse as parseLossless, isLosslessNumber } from 'lossless-json';
import { validate } from '../spec/validators.ts';
import type { PetStatus } from '../spec/contract.ts';
import { isInt64, jsonInteger } from './json-int.ts';
import type { ResolvedVariants } from './variants.ts';

export interface ParsedPet {
  name: string;
  /** Canonical decimal text of the int64 (kept as text: not every int64 is a safe JS number). */
  categoryId: string;
  status?: PetStatus;
}

export type BodyResult = { ok: true; pet: ParsedPet } | { ok: false; message: string };

const utf8 = new TextDecoder('utf-8', { fatal: true });
const KNOWN_FIELDS = new Set(['name', 'categoryId', 'status']);

function decode(body: Buffer | string): string | undefined {
  if (typeof body === 'string') return body;
  try {
    return utf8.decode(body);
  } catch {
    return undefined;
  }
}

/**
 * The categoryId's exact integer: the common case is a safe integer; otherwise (or when integer forms
 * like 1.0 must be refused) re-read the source text.
 */
function exactCategoryId(text: string, parsed: number, strict: boolean): bigint | undefined {
  if (Number.isSafeInteger(parsed) && !strict) return BigInt(parsed);
  try {
    const lossless = parseLossless(text) as Record<string, unknown>;
    const raw = lossless.categoryId;
    if (!isLosslessNumber(raw) || (strict && !/^-?\d+$/.test(raw.value))) return undefined;
    return jsonInteger(raw.value);
  } catch {
    return undefined; // lossless-json rejects duplicate keys with different values: not a valid NewPet then
  }
}

const codePoints = (s: string): number => {
  let n = 0;
  for (const _ of s) n++;
  return n;
};

export function parseNewPet(body: Buffer | string, variants: ResolvedVariants): BodyResult {
  const text = decode(body);
  if (text === undefined) return { ok: false, message: 'request body is not valid UTF-8' };
  if (text.trim() === '') return { ok: false, message: 'request body is required (a NewPet JSON object)' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, message: 'request body is not valid JSON' };
  }
  const check = validate('NewPet', value);
  if (!check.ok) return { ok: false, message: `invalid NewPet: ${check.errors.join('; ')}` };
  const pet = value as { name: string; categoryId: number; status?: PetStatus } & Record<string, unknown>;
  const id = exactCategoryId(text, pet.categoryId, variants.integerForms === 'strict');
  if (id === undefined || !isInt64(id)) return { ok: false, message: 'categoryId must be an integer within int64' };
  if (codePoints(pet.name) > variants.maxNameLength) {
    return { ok: false, message: `name is longer than ${variants.maxNameLength} characters` };
  }
  if (variants.unknownFields === 'reject') {
    const unknown = Object.keys(pet).filter((k) => !KNOWN_FIELDS.has(k));
    if (unknown.length) return { ok: false, message: `unknown field(s): ${unknown.join(', ')}` };
  }
  const categoryId = id.toString();
  if (variants.categories && !variants.categories.has(categoryId))
    return { ok: false, message: `unknown categoryId ${categoryId}` };
  return {
    ok: true,
    pet: pet.status === undefined ? { name: pet.name, categoryId } : { name: pet.name, categoryId, status: pet.status },
  };
}
