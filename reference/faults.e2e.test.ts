// The one fault that only shows with real concurrency: racy (check, await, count) over a socket.
// Its correct counterpart is server.e2e.test.ts's "exactly 60 of 500".
import { afterAll, beforeAll, expect, test } from 'vitest';
import { listen, type RunningServer } from './server.ts';
import { agent, send, untilBoundary } from '../testkit/reference/e2e-client.ts';

let server: RunningServer;

beforeAll(async () => {
  server = await listen({ keys: { r: 'free' }, faults: { racy: true } });
});
afterAll(async () => {
  await server.close();
  await agent.close();
});

test('racy: 500 simultaneous requests admit more than the 60 the plan allows', async () => {
  if (Date.now() % 60_000 > 50_000) await untilBoundary(60, 100);
  const results = await Promise.all(Array.from({ length: 500 }, () => send(`${server.baseUrl}/pets`, { key: 'r' })));
  expect(results.filter((r) => r.status === 200).length).toBeGreaterThan(60);
});
