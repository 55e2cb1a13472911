import { describe, expect, it } from 'vitest';
import type { Exchange, HttpRequest, Send } from './exchange.ts';
import { stack, type Layer } from './layer.ts';

const request: HttpRequest = { method: 'GET', url: 'http://127.0.0.1:1/v1/pets', headers: {} };
const answer = (req: HttpRequest): Exchange => ({
  request: req,
  response: { status: 200, headers: {}, body: '' },
  sentAt: 0,
  durationMs: 1,
});

describe('stack', () => {
  it('runs the first layer listed first, and the base last', async () => {
    const seen: string[] = [];
    const named =
      (name: string): Layer =>
      (next) =>
      async (req) => {
        seen.push(`${name} in`);
        const ex = await next(req);
        seen.push(`${name} out`);
        return ex;
      };
    const base: Send = async (req) => (seen.push('base'), answer(req));
    await stack(base, named('a'), named('b'))(request);
    expect(seen).toEqual(['a in', 'b in', 'base', 'b out', 'a out']);
  });

  it('with no layer is the base itself', () => {
    const base: Send = async (req) => answer(req);
    expect(stack(base)).toBe(base);
  });
});
