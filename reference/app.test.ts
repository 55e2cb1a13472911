import { describe, expect, test } from 'vitest';
import { isApiError, isPet, isPets } from '../spec/validators.ts';
import { createApp } from './app.ts';
import { bodyOf, fakeClock, inProcess, rate } from '../testkit/reference/in-process.ts';

const pet = '{"name":"Rex","categoryId":7}';

describe('auth (§5) comes before anything else', () => {
  test.for([
    ['missing', undefined],
    ['unknown key', 'Bearer nope'],
    ['Basic scheme', 'Basic aztr'],
    ['no token', 'Bearer'],
    ['key without scheme', 'k'],
    ['extra parts', 'Bearer k extra'],
  ] as const)('401 + Error for %s credentials, even with an invalid body', async ([, authorization]) => {
    const call = inProcess();
    const headers: Record<string, string> = authorization === undefined ? {} : { authorization };
    for (const [method, path] of [
      ['GET', '/v1/pets?limit=0'],
      ['POST', '/v1/pets'],
      ['GET', '/v1/pets/abc'],
      ['DELETE', '/v1/nowhere'],
    ] as const) {
      const res = await call(method, path, { key: null, headers, body: '{bad' });
      expect(res.status).toBe(401);
      expect(isApiError(bodyOf(res)) && (bodyOf(res) as { status: number }).status).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer');
      expect(res.headers['content-type']).toBe('application/json');
    }
  });

  test('the scheme name is case-insensitive (RFC 9110 §11.1)', async () => {
    const call = inProcess();
    for (const scheme of ['bearer', 'BEARER', 'BeArEr']) {
      expect((await call('GET', '/v1/pets', { key: null, headers: { authorization: `${scheme} k` } })).status).toBe(
        200,
      );
    }
  });

  test('401s carry rate-limit headers (free figures, untouched window) and consume nothing', async () => {
    const clock = fakeClock(Date.UTC(2030, 0, 1, 0, 0, 30));
    const call = inProcess({ now: clock.now });
    const res = await call('GET', '/v1/pets', { key: 'wrong' });
    expect(rate(res)).toEqual({ limit: 60, remaining: 60, reset: Date.UTC(2030, 0, 1, 0, 1, 0) / 1000 });
    expect(rate(await call('GET', '/v1/pets')).remaining).toBe(59);
  });

  test('"__proto__" is just an unknown key', async () => {
    const call = inProcess();
    expect((await call('GET', '/v1/pets', { key: '__proto__' })).status).toBe(401);
  });
});

describe('create, list, get (§4)', () => {
  test('create → 201 Pet with a server-assigned id; get → 200 with deprecation headers', async () => {
    const call = inProcess();
    const created = await call('POST', '/v1/pets', {
      body: '{"name":"Rex","categoryId":7,"status":"pending","id":99}',
    });
    expect(created.status).toBe(201);
    const body = bodyOf(created) as { id: number };
    expect(isPet(body)).toBe(true);
    expect(body).toEqual({ id: 1, name: 'Rex', categoryId: 7, status: 'pending' });
    const got = await call('GET', `/v1/pets/${body.id}`);
    expect(got.status).toBe(200);
    expect(bodyOf(got)).toEqual(body);
    expect(got.headers.deprecation).toMatch(/^@\d+$/);
    expect(got.headers.sunset).toBe('Thu, 05 Dec 2030 00:00:00 GMT');
    expect(got.headers.link).toContain('successor-version');
  });

  test('get of an unknown id → 404 Error; non-integer id → 400 Error', async () => {
    const call = inProcess();
    const missing = await call('GET', '/v1/pets/12345');
    expect([missing.status, (bodyOf(missing) as { status: number }).status]).toEqual([404, 404]);
    for (const id of ['abc', '1.5', '9223372036854775808']) {
      const res = await call('GET', `/v1/pets/${id}`);
      expect([res.status, (bodyOf(res) as { status: number }).status]).toEqual([400, 400]);
    }
  });

  test('list: default 20, limit bounds, status filter', async () => {
    const call = inProcess({}, 'business');
    for (let i = 0; i < 25; i++)
      await call('POST', '/v1/pets', {
        body: `{"name":"p${i}","categoryId":1,"status":"${i % 5 ? 'available' : 'sold'}"}`,
      });
    const all = await call('GET', '/v1/pets');
    expect(isPets(bodyOf(all))).toBe(true);
    expect((bodyOf(all) as unknown[]).length).toBe(20);
    expect((bodyOf(await call('GET', '/v1/pets?limit=100')) as unknown[]).length).toBe(25);
    expect((bodyOf(await call('GET', '/v1/pets?limit=1')) as unknown[]).length).toBe(1);
    const sold = bodyOf(await call('GET', '/v1/pets?status=sold&limit=100')) as { status: string }[];
    expect(sold.length).toBe(5);
    expect(sold.every((p) => p.status === 'sold')).toBe(true);
    for (const q of ['limit=0', 'limit=101', 'limit=abc', 'limit=1.5', 'limit=', 'status=lost', 'limit=1&limit=2']) {
      const res = await call('GET', `/v1/pets?${q}`);
      expect([q, res.status, (bodyOf(res) as { status: number }).status]).toEqual([q, 400, 400]);
    }
  });

  test('400s are Error bodies with status 400', async () => {
    const call = inProcess();
    const res = await call('POST', '/v1/pets', { body: '{"name":"a"}' });
    expect(res.status).toBe(400);
    expect(isApiError(bodyOf(res))).toBe(true);
    expect((bodyOf(res) as { status: number }).status).toBe(400);
  });
});

describe('robustness', () => {
  test('unknown route → 404 Error; wrong method → 405 with Allow; HEAD is GET', async () => {
    const call = inProcess();
    const nf = await call('GET', '/v1/store/orders');
    expect([nf.status, (bodyOf(nf) as { status: number }).status]).toEqual([404, 404]);
    const na = await call('DELETE', '/v1/pets');
    expect(na.status).toBe(405);
    expect(na.headers.allow).toBe('GET, HEAD, POST');
    expect((await call('PUT', '/v1/pets/1')).headers.allow).toBe('GET, HEAD');
    expect((await call('HEAD', '/v1/pets')).status).toBe(200);
    expect((await call('GET', '/pets')).status).toBe(404);
  });

  test('oversize body → 413 Error, after auth', async () => {
    const call = inProcess({ maxBodyBytes: 100 });
    const big = `{"name":"${'x'.repeat(200)}","categoryId":1}`;
    const res = await call('POST', '/v1/pets', { body: big });
    expect([res.status, (bodyOf(res) as { status: number }).status]).toEqual([413, 413]);
    expect(res.headers['x-ratelimit-limit']).toBe('60');
    expect((await call('POST', '/v1/pets', { body: big, key: null })).status).toBe(401);
  });

  test('every response carries X-RateLimit-* and a Date', async () => {
    const call = inProcess({ maxBodyBytes: 10 });
    const responses = [
      await call('GET', '/v1/pets'),
      await call('POST', '/v1/pets', { body: '{}' }),
      await call('GET', '/v1/pets/1'),
      await call('DELETE', '/v1/pets'),
      await call('POST', '/v1/pets', { body: 'x'.repeat(20) }),
      await call('GET', '/v1/pets', { key: null }),
    ];
    for (const res of responses) {
      expect(Object.keys(res.headers)).toEqual(
        expect.arrayContaining(['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'date']),
      );
    }
  });

  test('a thrown bug becomes a logged 500 Error, not a crash', async () => {
    const logged: string[] = [];
    const app = createApp({ keys: { k: 'free' }, log: (m) => logged.push(m) });
    const res = await app.handle({ method: 'GET', path: '/v1/pets', headers: null as never, body: '' });
    expect(res.status).toBe(500);
    expect((bodyOf(res) as { status: number }).status).toBe(500);
    expect(logged).toHaveLength(1);
  });

  test('default keys: one per concrete plan, returned to the caller', () => {
    const { keys } = createApp();
    expect(Object.values(keys).sort()).toEqual(['business', 'free', 'pro']);
  });

  test('a key on an unknown or custom plan is a ConfigError', () => {
    expect(() => createApp({ keys: { k: 'gold' } })).toThrow(/unknown plan/);
    expect(() => createApp({ keys: { k: 'enterprise' } })).toThrow(/custom figures/);
  });
});
