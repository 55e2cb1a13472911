// A slow client cannot hold the server: headers that never finish get a 408 JSON Error and a closed
// socket once headersTimeout passes (shortened here; 10 s by default).
import { afterAll, beforeAll, expect, test } from 'vitest';
import { listen, type RunningServer } from './server.ts';
import { raw, send, agent } from '../testkit/reference/e2e-client.ts';

let server: RunningServer;

beforeAll(async () => {
  server = await listen({
    keys: { k: 'free' },
    limits: { headersTimeout: 500, requestTimeout: 1000, connectionsCheckingInterval: 100 },
  });
});
afterAll(async () => {
  await server.close();
  await agent.close();
});

test('unfinished headers → 408 JSON Error and the socket is closed; others are still served', async () => {
  const started = Date.now();
  const [slow, other] = await Promise.all([
    raw(server.port, 'GET /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer k\r\n'),
    send(`${server.baseUrl}/pets`, { key: 'k' }),
  ]);
  expect(slow).toMatch(/^HTTP\/1\.1 408 /);
  expect(slow).toContain('{"code":"REQUEST_TIMEOUT","message":"request timeout","status":408}');
  expect(Date.now() - started).toBeLessThan(4000); // closed by the server, not by raw()'s 5 s cap
  expect(other.status).toBe(200);
});
