// The reference server under attack, over real sockets: thousands of hostile requests (invalid JSON,
// deep nesting, huge numbers, __proto__ keys, invalid UTF-8, oversize headers and bodies, random
// methods, paths and queries), slow clients, and bursts on many keys at once. It never answers 5xx,
// never crashes, keeps memory bounded, keeps serving well-formed requests correctly, and its limiter
// admits exactly each key's limit.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeTransport } from '../http/undici-send.ts';
import { attack } from '../testkit/http/malformed.ts';
import { rawExchange, rawRequest } from '../testkit/http/raw-client.ts';
import { isPet, isPets } from '../spec/validators.ts';
import { parsePlansFile } from '../spec/plans.ts';
import { listen, type RunningServer } from './index.ts';

const FUZZ_KEY = 'fuzz-key-0123456789';
const TINY = { perMinute: 7, perDay: 1_000 };
const BURST_KEYS = Array.from({ length: 40 }, (_, i) => `burst-key-${String(i).padStart(2, '0')}`);
/** Frozen server time, mid-window: a burst can never straddle a window boundary. */
const NOW = Date.UTC(2030, 0, 1, 0, 0, 30);
const SEED = 20261122;

let server: RunningServer;
const transport = createNodeTransport({ timeoutMs: 5_000, connections: 128 });
const prototypeKeys = Object.getOwnPropertyNames(Object.prototype).sort();
const logged: string[] = [];

beforeAll(async () => {
  const plans = parsePlansFile(
    { plans: { fuzz: { perMinute: 1_000_000_000, perDay: 1_000_000_000 }, tiny: TINY } },
    'fuzz plans',
  );
  server = await listen({
    plans,
    keys: { [FUZZ_KEY]: 'fuzz', ...Object.fromEntries(BURST_KEYS.map((k) => [k, 'tiny'])) },
    now: () => NOW,
    maxPets: 2_000,
    log: (m) => logged.push(m),
    limits: { headersTimeout: 800, requestTimeout: 1_500, connectionsCheckingInterval: 100 },
  });
});

afterAll(async () => {
  await transport.close();
  await server.close();
});

const headers = (key: string, json = false): Record<string, string> => ({
  authorization: `Bearer ${key}`,
  ...(json ? { 'content-type': 'application/json' } : {}),
});

/** Well-formed traffic still gets correct answers: create, fetch by id, list with a limit. */
async function servesCorrectly(tag: number): Promise<void> {
  const name = `well-formed ${tag}`;
  const created = await transport.send({
    method: 'POST',
    url: `${server.baseUrl}/pets`,
    headers: headers(FUZZ_KEY, true),
    body: JSON.stringify({ name, categoryId: 3, status: 'pending' }),
  });
  expect(created.response.status).toBe(201);
  const pet = JSON.parse(created.response.body) as { id: number; name: string };
  expect(isPet(pet)).toBe(true);
  expect(pet.name).toBe(name);
  const fetched = await transport.send({
    method: 'GET',
    url: `${server.baseUrl}/pets/${pet.id}`,
    headers: headers(FUZZ_KEY),
  });
  expect(fetched.response.status).toBe(200);
  expect(JSON.parse(fetched.response.body)).toEqual(pet);
  const listed = await transport.send({
    method: 'GET',
    url: `${server.baseUrl}/pets?limit=5&status=pending`,
    headers: headers(FUZZ_KEY),
  });
  expect(listed.response.status).toBe(200);
  const pets = JSON.parse(listed.response.body) as Array<{ status: string }>;
  expect(isPets(pets)).toBe(true);
  expect(pets.length).toBeGreaterThan(0);
  expect(pets.length).toBeLessThanOrEqual(5);
  expect(pets.every((p) => p.status === 'pending')).toBe(true);
}

describe('malformed requests over real sockets', () => {
  it('thousands of hostile requests: never 5xx, always an answer, well-formed requests still served', async () => {
    await servesCorrectly(0);
    const heapBefore = process.memoryUsage().heapUsed;
    const kinds = new Map<string, number>();
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(attack(FUZZ_KEY), async (a) => {
        runs += 1;
        kinds.set(a.kind, (kinds.get(a.kind) ?? 0) + 1);
        const reply = await rawExchange(server.port, a.bytes, { timeoutMs: 4_000 });
        // CONNECT has no meaning here: node drops the socket, which is an answer too.
        if (!a.kind.startsWith('CONNECT ')) expect(reply.statuses.length, reply.text.slice(0, 300)).toBeGreaterThan(0);
        expect(reply.closedByServer).toBe(true);
        for (const status of reply.statuses) expect(status, reply.text.slice(0, 300)).toBeLessThan(500);
        if (runs % 250 === 0) await servesCorrectly(runs);
      }),
      { numRuns: 3_000, seed: SEED },
    );
    await servesCorrectly(runs);
    expect(logged).toEqual([]);
    // A generous bound: 3,000 requests (bodies up to 200 KiB) must not leave their bytes behind.
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(96 * 1024 * 1024);
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeKeys);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    // Each family of attack was actually sent.
    for (const family of ['deep', 'huge-number', 'proto', 'invalid-utf8', 'oversize', 'invalid-json']) {
      expect(
        [...kinds.keys()].some((k) => k.endsWith(` ${family}`)),
        family,
      ).toBe(true);
      expect(
        [...kinds.keys()].some((k) => k.endsWith(` ${family} chunked`)),
        `${family} chunked`,
      ).toBe(true);
    }
  }, 60_000);

  it('garbage instead of HTTP, and oversize headers: 4xx or a closed socket, never a hang', async () => {
    const garbage = fc
      .sample(fc.uint8Array({ minLength: 1, maxLength: 400 }), { numRuns: 60, seed: SEED })
      .map((a) => Buffer.concat([Buffer.from(a), Buffer.from('\r\n\r\n')]));
    const oversize = rawRequest('GET', '/v1/pets', [
      ['Authorization', `Bearer ${FUZZ_KEY}`],
      ['X-Big', 'b'.repeat(40 * 1024)],
    ]);
    const replies = await Promise.all(
      [...garbage, oversize].map((b) => rawExchange(server.port, b, { timeoutMs: 5_000 })),
    );
    for (const reply of replies) {
      expect(reply.closedByServer).toBe(true);
      expect(reply.ms).toBeLessThan(4_000);
      for (const status of reply.statuses) expect(status).toBeGreaterThanOrEqual(400);
      for (const status of reply.statuses) expect(status).toBeLessThan(500);
    }
    expect(replies.at(-1)!.statuses).toEqual([431]);
    await servesCorrectly(-1);
  });

  it('slow clients are cut off by the server while others are served', async () => {
    const post = rawRequest(
      'POST',
      '/v1/pets',
      [
        ['Authorization', `Bearer ${FUZZ_KEY}`],
        ['Content-Type', 'application/json'],
      ],
      Buffer.from('{"name":"slow","categoryId":1}'.padEnd(600)),
    );
    const slow = Array.from({ length: 20 }, (_, i) =>
      rawExchange(server.port, i % 2 ? post : post.subarray(0, 40), {
        timeoutMs: 6_000,
        trickle: { chunk: 1, intervalMs: 40 },
      }),
    );
    await servesCorrectly(-2);
    const replies = await Promise.all(slow);
    for (const reply of replies) {
      expect(reply.closedByServer).toBe(true);
      expect(reply.ms).toBeLessThan(5_000);
      expect(reply.statuses.every((s) => s === 408)).toBe(true);
    }
  });
});

describe('the limiter under concurrency', () => {
  it('bursts on 40 keys at once: each key admits exactly its limit, Remaining counts down once per admission', async () => {
    const extra = 5;
    const sends = BURST_KEYS.flatMap((key) =>
      Array.from({ length: TINY.perMinute + extra }, (_, i) =>
        transport
          .send(
            i % 3 === 0
              ? {
                  method: 'POST',
                  url: `${server.baseUrl}/pets`,
                  headers: headers(key, true),
                  body: '{"name":"burst","categoryId":1}',
                }
              : { method: 'GET', url: `${server.baseUrl}/pets?limit=1`, headers: headers(key) },
          )
          .then((e) => ({ key, status: e.response.status, remaining: e.response.headers['x-ratelimit-remaining'] })),
      ),
    );
    const results = await Promise.all(sends);
    for (const key of BURST_KEYS) {
      const mine = results.filter((r) => r.key === key);
      const admitted = mine.filter((r) => r.status === 200 || r.status === 201);
      expect(admitted.length, key).toBe(TINY.perMinute);
      expect(mine.filter((r) => r.status === 429).length, key).toBe(extra);
      expect(admitted.map((r) => Number(r.remaining)).sort((x, y) => x - y)).toEqual(
        Array.from({ length: TINY.perMinute }, (_, i) => i),
      );
    }
  });
});
