// The reference server over a real socket, with the specification's own windows (60 s / 1 day).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { isApiError, isPet } from '../spec/validators.ts';
import { listen, type RunningServer } from './server.ts';
import { agent, raw, send, untilBoundary } from '../testkit/reference/e2e-client.ts';

let server: RunningServer;
const url = (path: string) => `${server.baseUrl}${path}`;

beforeAll(async () => {
  server = await listen({ keys: { a: 'business', burst: 'free', c: 'free' }, log: () => undefined });
});
afterAll(async () => {
  await server.close();
  await agent.close();
});

describe('over a socket', () => {
  test('baseUrl is loopback with the /v1 base path', () => {
    expect(server.baseUrl).toBe(`http://127.0.0.1:${server.port}/v1`);
  });

  test('create → 201 Pet, get → 200 with Deprecation/Sunset, JSON, Date and Content-Length', async () => {
    const created = await send(url('/pets'), {
      method: 'POST',
      key: 'a',
      body: '{"name":"Rex","categoryId":9223372036854775807}',
    });
    expect(created.status).toBe(201);
    expect(created.body).toContain('"categoryId":9223372036854775807');
    const pet = JSON.parse(created.body) as { id: number };
    expect(isPet(pet)).toBe(true);
    const got = await send(url(`/pets/${pet.id}`), { key: 'a' });
    expect(got.status).toBe(200);
    expect(got.body).toBe(created.body);
    expect(got.headers['content-type']).toBe('application/json');
    expect(got.headers['content-length']).toBe(String(Buffer.byteLength(got.body)));
    expect(got.headers.date).toMatch(/ GMT$/);
    expect(got.headers.deprecation).toMatch(/^@\d+$/);
    expect(got.headers.sunset).toBe('Thu, 05 Dec 2030 00:00:00 GMT');
  });

  test('401 before validation, with WWW-Authenticate and rate-limit headers', async () => {
    const res = await send(url('/pets'), { method: 'POST', key: 'wrong', body: 'not json' });
    expect(res.status).toBe(401);
    expect(isApiError(JSON.parse(res.body))).toBe(true);
    expect(res.headers['www-authenticate']).toBe('Bearer');
    expect(res.headers['x-ratelimit-limit']).toBe('60');
  });

  test('invalid UTF-8 → 400 Error', async () => {
    const body = Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xc3, 0x28]), Buffer.from('","categoryId":1}')]);
    const res = await send(url('/pets'), { method: 'POST', key: 'a', body });
    expect([res.status, JSON.parse(res.body).status]).toEqual([400, 400]);
  });

  test('a body over the 64 KiB cap → 413 Error with rate-limit headers', async () => {
    const res = await send(url('/pets'), {
      method: 'POST',
      key: 'a',
      body: `{"name":"${'x'.repeat(70_000)}","categoryId":1}`,
    });
    expect([res.status, JSON.parse(res.body).status]).toEqual([413, 413]);
    expect(res.headers['x-ratelimit-remaining']).toMatch(/^\d+$/);
  });

  test('HEAD answers like GET without a body', async () => {
    const res = await send(url('/pets'), { method: 'HEAD', key: 'a' });
    expect([res.status, res.body]).toEqual([200, '']);
  });

  test('headers over 16 KiB → 431 JSON Error; garbage → 400 JSON Error; the server survives', async () => {
    const big = await raw(server.port, `GET /v1/pets HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(big).toMatch(/^HTTP\/1\.1 431 /);
    expect(big).toContain('{"code":"HEADERS_TOO_LARGE","message":"request header fields too large","status":431}');
    expect(big).toMatch(/\r\nx-ratelimit-limit: 60\r\n/);
    const garbage = await raw(server.port, 'HELLO\r\n\r\n');
    expect(garbage).toMatch(/^HTTP\/1\.1 400 /);
    expect(garbage).toContain('{"code":"BAD_REQUEST","message":"bad request","status":400}');
    expect((await send(url('/pets'), { key: 'a' })).status).toBe(200);
  });

  test('500 simultaneous requests on a fresh 60/min window admit exactly 60', async () => {
    if (Date.now() % 60_000 > 50_000) await untilBoundary(60, 100); // start well inside one window
    const results = await Promise.all(Array.from({ length: 500 }, () => send(url('/pets'), { key: 'burst' })));
    const admitted = results.filter((r) => r.status === 200);
    const refused = results.filter((r) => r.status === 429);
    expect(admitted).toHaveLength(60);
    expect(refused).toHaveLength(440);
    for (const r of refused) {
      const retry = Number(r.headers['retry-after']);
      expect(retry).toBeGreaterThanOrEqual(1);
      expect(retry).toBe(Number(r.headers['x-ratelimit-reset']) - Math.floor(Date.parse(r.headers.date!) / 1000));
    }
  });
});
