// Small judgements shared by checks of several areas.
import type { Exchange } from '../../core/exchange.ts';
import { jsonOf } from '../json.ts';
import { fail, type Finding } from './types.ts';

export function expectStatus(exchange: Exchange, allowed: readonly number[], what: string): Finding | undefined {
  const { status } = exchange.response;
  if (allowed.includes(status)) return undefined;
  return fail(`${what}: expected ${allowed.join(' or ')}, got ${status}`, exchange, {
    expected: allowed,
    received: status,
  });
}

/** The body as JSON when it parses, else undefined. */
export const bodyOf = (exchange: Exchange): unknown => jsonOf(exchange.response.body);

export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
