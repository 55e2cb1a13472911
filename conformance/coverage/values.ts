// The mutation values of the coverage phase, built from a valid value or an enum, never listed per
// field: which of them a field refuses is the schema's call (coverage/schema.ts), not this file's.
import { INT64, isInt64 } from '../../spec/int64.ts';
import type { JsonType } from './schema.ts';

/** The first integer a double cannot hold exactly is 2^53 + 1: where a parser that goes through doubles breaks. */
const DOUBLE_EXACT = 2n ** 53n;

export interface Edge {
  label: string;
  text: string;
  inRange: boolean;
}

/** ±2^63 around the int64 range and 2^53 ± 1 around the doubles' exact range, as decimal text. */
export function int64Edges(): Edge[] {
  const edge = (label: string, n: bigint): Edge => ({ label, text: String(n), inRange: isInt64(n) });
  return [
    edge('int64-max', INT64.max),
    edge('int64-min', INT64.min),
    edge('above-int64-max', INT64.max + 1n),
    edge('below-int64-min', INT64.min - 1n),
    edge('2^53+1', DOUBLE_EXACT + 1n),
    edge('2^53-1', DOUBLE_EXACT - 1n),
  ];
}

export interface TypedValue {
  type: JsonType;
  value: unknown;
}

/**
 * One value of every JSON type, each built from a valid value of the field so that the mistakes of
 * lenient parsers show: the number written as a string ("1"), the value wrapped in an array or an
 * object. `integer` and `number` are apart because JSON Schema tells 1 from 1.5.
 */
export function valuesOfEveryType(valid: unknown): TypedValue[] {
  return [
    { type: 'null', value: null },
    { type: 'boolean', value: true },
    { type: 'integer', value: 1 },
    { type: 'number', value: 1.5 },
    { type: 'string', value: String(valid) },
    { type: 'array', value: [valid] },
    { type: 'object', value: { value: valid } },
  ];
}

export interface Outsider {
  label: string;
  value: string;
}

const capitalized = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);
const swapped = (s: string): string =>
  [...s].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');

export interface CaseChange {
  label: string;
  change: (s: string) => string;
}

/**
 * The ways a name's case is changed. JSON object keys are case-sensitive (RFC 8259 §8.3 compares them
 * code unit by code unit): a server that folds key case reads each changed key as the contract's own.
 */
export const CASE_CHANGES: readonly CaseChange[] = [
  { label: 'upper', change: (s) => s.toUpperCase() },
  { label: 'capitalized', change: capitalized },
  { label: 'lower', change: (s) => s.toLowerCase() },
  { label: 'swapped', change: swapped },
];

/**
 * Strings just outside an enum: each member in upper case, capitalised, with a leading and with a
 * trailing space (a server that folds case or trims accepts them), and the empty string.
 */
export function enumOutsiders(members: readonly string[]): Outsider[] {
  const candidates: Outsider[] = members.flatMap((m) => [
    { label: `upper-${m}`, value: m.toUpperCase() },
    { label: `capitalized-${m}`, value: capitalized(m) },
    { label: `space-before-${m}`, value: ` ${m}` },
    { label: `space-after-${m}`, value: `${m} ` },
  ]);
  candidates.push({ label: 'empty', value: '' });
  const seen = new Set<string>();
  return candidates.filter((c) => !members.includes(c.value) && !seen.has(c.value) && seen.add(c.value));
}
