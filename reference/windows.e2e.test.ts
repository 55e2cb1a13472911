// Compressed windows over a socket (2 s "minutes", 40 s "days", from a plans file): the quotas
// reset on epoch-aligned boundaries and the headers tell a client exactly when.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { loadPlansFile } from '../spec/plans-file.ts';
import { listen, type RunningServer } from './server.ts';
import { agent, send, untilBoundary, type Reply } from '../testkit/reference/e2e-client.ts';

let server: RunningServer;

beforeAll(async () => {
  const file = join(mkdtempSync(join(tmpdir(), 'petcert-ref-')), 'plans.json');
  writeFileSync(
    file,
    JSON.stringify({ windows: { minuteSeconds: 2, daySeconds: 40 }, plans: { tiny: { perMinute: 3, perDay: 5 } } }),
  );
  server = await listen({ plans: loadPlansFile(file), keys: { t: 'tiny' } });
});
afterAll(async () => {
  await server.close();
  await agent.close();
});

const get = () => send(`${server.baseUrl}/pets`, { key: 't' });
const dateSec = (r: Reply) => Math.floor(Date.parse(r.headers.date!) / 1000);
const header = (r: Reply, name: string) => Number(r.headers[name]);

test('minute quota, recovery at the Reset, then the day quota binds with its own Reset', async () => {
  if (Date.now() % 40_000 > 28_000) await untilBoundary(40); // the sequence needs ~6 s inside one "day"
  await untilBoundary(2);
  const first = [await get(), await get(), await get()];
  expect(first.map((r) => r.status)).toEqual([200, 200, 200]);
  expect(first.map((r) => header(r, 'x-ratelimit-remaining'))).toEqual([2, 1, 0]);
  const refused = await get();
  expect(refused.status).toBe(429);
  const reset = header(refused, 'x-ratelimit-reset');
  expect(reset % 2).toBe(0); // epoch-aligned
  expect(header(refused, 'retry-after')).toBe(reset - dateSec(refused));

  await new Promise((r) => setTimeout(r, header(refused, 'retry-after') * 1000 + 50));
  const next = [await get(), await get()];
  expect(next.map((r) => r.status)).toEqual([200, 200]); // day: 5 of 5 used
  const dayRefused = await get();
  expect(dayRefused.status).toBe(429);
  expect(header(dayRefused, 'x-ratelimit-limit')).toBe(5);
  const dayReset = header(dayRefused, 'x-ratelimit-reset');
  expect(dayReset % 40).toBe(0);
  expect(header(dayRefused, 'retry-after')).toBe(dayReset - dateSec(dayRefused));
  expect(header(dayRefused, 'retry-after')).toBeGreaterThan(2);
});
