// No input produces a 5xx, a throw or a malformed answer: arbitrary methods, paths, headers and bodies
// against the in-process app (the socket adapter adds only framing, tested in server.e2e.test.ts).
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { isApiError } from '../spec/validators.ts';
import { createApp } from './app.ts';

const pathArb = fc.oneof(
  fc.constantFrom('/v1/pets', '/v1/pets/1', '/v1/pets/', '/v1/pets/%', '/v1/pets/%zz', '/v1//pets', '/', '', '*'),
  fc
    .tuple(fc.constantFrom('/v1/pets', '/v1/pets/'), fc.string({ unit: 'binary', maxLength: 40 }))
    .map(([a, b]) => a + b),
  fc.tuple(fc.constant('/v1/pets?'), fc.string({ maxLength: 40 })).map(([a, b]) => a + b),
  fc.string({ unit: 'binary', maxLength: 60 }),
);

const bodyArb = fc.oneof(
  fc.json({ maxDepth: 3 }),
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.uint8Array({ maxLength: 200 }).map((a) => Buffer.from(a)),
  fc
    .record({ name: fc.anything(), categoryId: fc.anything(), status: fc.anything() }, { requiredKeys: [] })
    .map((v) => {
      try {
        return JSON.stringify(v) ?? '';
      } catch {
        return '';
      }
    }),
);

test('arbitrary requests: never 5xx, always JSON Error on 4xx, always rate-limit headers', async () => {
  const app = createApp({ keys: { k: 'business' }, log: (m) => expect.fail(m), maxBodyBytes: 150 });
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom('GET', 'POST', 'HEAD', 'PUT', 'DELETE', 'OPTIONS', 'PATCH', 'get', 'BREW'),
      pathArb,
      fc.option(fc.oneof(fc.constant('Bearer k'), fc.constant('bearer  k'), fc.string({ maxLength: 20 }))),
      bodyArb,
      async (method, path, authorization, body) => {
        const headers: Record<string, string> = authorization === null ? {} : { authorization };
        const res = await app.handle({ method, path, headers, body });
        expect(res.status).toBeLessThan(500);
        for (const h of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'date'])
          expect(res.headers[h]).toBeDefined();
        if (res.status >= 400 && res.status !== 429) {
          const parsed = JSON.parse(res.body) as { status: number };
          expect(isApiError(parsed)).toBe(true);
          expect(parsed.status).toBe(res.status);
        }
      },
    ),
    { numRuns: 2000, seed: 20261122 },
  );
});
