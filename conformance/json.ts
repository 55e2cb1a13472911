// Reading response bodies. Ids are int64: a server may hand out ids beyond 2^53, which JSON.parse
// would round (and then GET /pets/{id} would miss). The id is therefore read as the text it was sent as.
import { isLosslessNumber, parse as parseLossless } from 'lossless-json';
import { parseJson } from '../core/exchange.ts';
import type { Pet } from '../spec/contract.ts';

export function jsonOf(text: string): unknown {
  const r = parseJson(text);
  return r.ok ? r.value : undefined;
}

/** The canonical id text of a losslessly parsed object, or undefined. */
function idOf(value: unknown): string | undefined {
  const id = value && typeof value === 'object' ? (value as Record<string, unknown>)['id'] : undefined;
  return isLosslessNumber(id) ? canonicalInteger(id.value) : undefined;
}

function parsedLossless(text: string): unknown {
  try {
    return parseLossless(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The decimal text of body.id, exactly as the server wrote it (canonical: `1.0`, `1e3` are the integers 1, 1000), or undefined. */
export function idTextOf(text: string): string | undefined {
  return idOf(parsedLossless(text));
}

/** The decimal text of an integer field of a JSON object body, exactly as written (beyond 2^53 too), or undefined. */
export function integerTextOf(text: string, field: string): string | undefined {
  const value = parsedLossless(text);
  const v =
    value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>)[field] : undefined;
  return isLosslessNumber(v) ? canonicalInteger(v.value) : undefined;
}

/** The canonical id text of each element of a JSON array (undefined where there is none), or undefined. */
export function itemIdTextsOf(text: string): Array<string | undefined> | undefined {
  const value = parsedLossless(text);
  return Array.isArray(value) ? value.map(idOf) : undefined;
}

/**
 * JSON Schema (and so the contract) counts `1.0` and `1e3` as integers: a server may write an id that
 * way, and a client then addresses /pets/1000. Non-integers and absurd exponents: undefined.
 */
export function canonicalInteger(numberText: string): string | undefined {
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d{1,3}))?$/.exec(numberText);
  if (!m) return undefined;
  const [, sign, whole, fraction = '', exp = '0'] = m;
  const shift = Number(exp) - fraction.length;
  let digits = (whole! + fraction).replace(/^0+(?=\d)/, '');
  if (shift >= 0) {
    if (digits.length + shift > 40) return undefined;
    digits = digits === '0' ? '0' : digits + '0'.repeat(shift);
  } else {
    const cut = digits.length + shift;
    if (!/^0*$/.test(digits.slice(Math.max(0, cut)))) return undefined;
    digits = cut > 0 ? digits.slice(0, cut) : '0';
  }
  return digits === '0' ? '0' : sign + digits;
}

/** A pet id for the report: a number when exact, else its text. */
export function reportId(idText: string): number | string {
  const n = Number(idText);
  return Number.isSafeInteger(n) && String(n) === idText ? n : idText;
}

const PET_FIELDS = ['name', 'categoryId', 'status'] as const;

/** The fields (name, categoryId, status) in which a pet read back differs from the one creation returned. */
export function differingPetFields(got: Record<string, unknown>, created: Pet): string[] {
  return PET_FIELDS.filter((f) => JSON.stringify(got[f]) !== JSON.stringify(created[f]));
}

/** Field-by-field equality of the NewPet part; `status` compared only when it was sent. */
export function echoProblems(
  sent: { name: string; categoryId: number; status?: string },
  got: Record<string, unknown>,
): string[] {
  const problems: string[] = [];
  if (got['name'] !== sent.name)
    problems.push(`name ${JSON.stringify(got['name'])} instead of ${JSON.stringify(sent.name)}`);
  if (got['categoryId'] !== sent.categoryId)
    problems.push(`categoryId ${JSON.stringify(got['categoryId'])} instead of ${sent.categoryId}`);
  if (sent.status !== undefined && got['status'] !== sent.status)
    problems.push(`status ${JSON.stringify(got['status'])} instead of ${JSON.stringify(sent.status)}`);
  return problems;
}
