// Reading response bodies. Ids are int64: a server may hand out ids beyond 2^53, which JSON.parse
// would round (and then GET /pets/{id} would miss). The id is therefore read as the text it was sent as.
import { isLosslessNumber, parse as parseLossless } from 'lossless-json';
import { parseJson } from '../core/exchange.ts';

export function jsonOf(text: string): unknown {
  const r = parseJson(text);
  return r.ok ? r.value : undefined;
}

/** The decimal text of body.id, exactly as the server wrote it, or undefined. */
export function idTextOf(text: string): string | undefined {
  try {
    const value = parseLossless(text) as Record<string, unknown> | null;
    const id = value && typeof value === 'object' ? value['id'] : undefined;
    return isLosslessNumber(id) ? id.value : undefined;
  } catch {
    return undefined;
  }
}

/** A pet id for the report: a number when exact, else its text. */
export function reportId(idText: string): number | string {
  const n = Number(idText);
  return Number.isSafeInteger(n) && String(n) === idText ? n : idText;
}

/** Field-by-field equality of the NewPet part; `status` compared only when `expectedStatus` says so. */
export function echoProblems(sent: { name: string; categoryId: number; status?: string }, got: Record<string, unknown>): string[] {
  const problems: string[] = [];
  if (got['name'] !== sent.name) problems.push(`name ${JSON.stringify(got['name'])} instead of ${JSON.stringify(sent.name)}`);
  if (got['categoryId'] !== sent.categoryId) problems.push(`categoryId ${JSON.stringify(got['categoryId'])} instead of ${sent.categoryId}`);
  if (sent.status !== undefined && got['status'] !== sent.status) problems.push(`status ${JSON.stringify(got['status'])} instead of ${JSON.stringify(sent.status)}`);
  return problems;
}
