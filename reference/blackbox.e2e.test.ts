// Black-box probe of `petcert serve`: the CLI exactly as documented, a plans file with compressed
// windows (2 s / 40 s) and custom plans, plain HTTP. Every rule of the specification and of
// reference/README.md; choices in the specification's gaps are held to what spec/GAPS.md says the reference does.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  agent,
  call,
  rawExchange,
  startServe,
  type Call,
  type Res,
  type Served,
} from '../testkit/reference/blackbox-client.ts';
import { expectError, expectJson, expectPet, rateOf } from '../testkit/reference/blackbox-expect.ts';

const PLANS = {
  windows: { minuteSeconds: 2, daySeconds: 40 },
  plans: {
    free: { perMinute: 5, perDay: 12 },
    pro: { perMinute: 60, perDay: 100_000 },
    enterprise: { perMinute: 3, perDay: 5 },
    gold: { perMinute: 100_000, perDay: 1_000_000 },
  },
};
const MAX_PETS = 200;
let srv: Served;
const DAY = PLANS.windows.daySeconds;

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'petcert-blackbox-'));
  const plansFile = join(dir, 'plans.json');
  writeFileSync(plansFile, JSON.stringify(PLANS));
  srv = await startServe(
    [
      '--host',
      '127.0.0.1',
      '--port',
      '0',
      '--key',
      'k1=free',
      '--key',
      'k2=pro',
      '--key',
      'k3=enterprise',
      '--key',
      'kg=gold',
      '--plans',
      plansFile,
      '--max-pets',
      String(MAX_PETS),
    ],
    4,
  );
});
afterAll(async () => {
  expect(await srv?.stop()).toBe(0);
  await agent.close();
});

const v1 = (path: string) => `/v1${path}`;
const as =
  (key: string) =>
  (method: string, path: string, opts: Call = {}) =>
    call(srv.origin, method, v1(path), { key, ...opts });
const gold = as('kg');

describe.concurrent('startup output', () => {
  test('prints the base URL, the windows and every key with its plan figures', () => {
    expect(srv.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect([srv.minuteSeconds, srv.daySeconds]).toEqual([2, 40]);
    expect(srv.keys).toEqual([
      { key: 'k1', plan: 'free', perMinute: 5, perDay: 12 },
      { key: 'k2', plan: 'pro', perMinute: 60, perDay: 100_000 },
      { key: 'k3', plan: 'enterprise', perMinute: 3, perDay: 5 },
      { key: 'kg', plan: 'gold', perMinute: 100_000, perDay: 1_000_000 },
    ]);
  });
});

const OPERATIONS: Array<[string, string, string?]> = [
  ['GET', '/pets'],
  ['POST', '/pets', '{"name":"a","categoryId":1}'],
  ['GET', '/pets/1'],
  ['POST', '/pets', '{'],
  ['GET', '/pets?limit=0'],
  ['GET', '/pets/abc'],
  ['DELETE', '/pets'],
  ['GET', '/store/orders'],
  ['HEAD', '/pets'],
  ['OPTIONS', '/pets'],
];
const BAD_AUTH: Array<[string, string | undefined]> = [
  ['missing', undefined],
  ['Basic', 'Basic azE6'],
  ['bare key', 'kg'],
  ['empty bearer', 'Bearer '],
  ['scheme only', 'Bearer'],
  ['unknown token', 'Bearer nope'],
  ['key with wrong case', 'Bearer KG'],
  ['key plus a char', 'Bearer kgx'],
  ['two tokens', 'Bearer kg kg'],
  ['token in quotes', 'Bearer "kg"'],
];

describe.concurrent('§5 auth: 401 + Error + rate-limit headers, before any validation', () => {
  test.for(BAD_AUTH)('%s credentials on every operation', async ([, auth]) => {
    for (const [method, path, body] of OPERATIONS) {
      const res = await call(srv.origin, method, v1(path), { auth, body });
      expect(res.status, `${method} ${path}`).toBe(401);
      if (method === 'HEAD') {
        rateOf(res, DAY);
        continue;
      }
      expectError(res, 401, DAY);
      expect(res.headers['www-authenticate']).toMatch(/^Bearer\b/);
    }
  });
  test('401 reports the free minute window untouched (GAPS.md) and is never counted', async () => {
    const a = rateOf(await call(srv.origin, 'GET', v1('/pets')), DAY);
    const b = rateOf(await call(srv.origin, 'GET', v1('/pets')), DAY);
    expect([a.limit, a.remaining, b.remaining]).toEqual([5, 5, 5]);
    expect(a.reset % srv.minuteSeconds).toBe(0);
  });
  test('paths outside /v1 and the API key in the query also need the header', async () => {
    for (const path of ['/', '/v2/pets', '/pets', '/v1/pets?api_key=kg']) {
      expectError(await call(srv.origin, 'GET', path), 401, DAY);
    }
  });
  test('scheme name in any case is accepted (RFC 9110 §11.1, GAPS.md)', async () => {
    for (const auth of ['bearer kg', 'BEARER kg', 'Bearer kg']) {
      expect((await call(srv.origin, 'GET', v1('/pets?limit=1'), { auth })).status, auth).toBe(200);
    }
  });
  test('two Authorization headers: an invalid one among them is never let through', async () => {
    for (const pair of [
      ['Bearer nope', 'Bearer kg'],
      ['Bearer kg', 'Bearer nope'],
      ['Bearer kg', 'Bearer kg'],
    ]) {
      const res = await call(srv.origin, 'GET', v1('/pets'), {
        headers: ['authorization', pair[0]!, 'authorization', pair[1]!],
      });
      expectError(res, 401, DAY);
    }
  });
});

async function create(body: unknown): Promise<Res> {
  return gold('POST', '/pets', { body: typeof body === 'string' ? body : JSON.stringify(body) });
}

describe.concurrent('§4.2 create', () => {
  test('201 + the Pet echoed with a unique integer id, then GET returns the same pet', async () => {
    const sent = [
      { name: 'Rex', categoryId: 1, status: 'available' },
      { name: 'Tom', categoryId: 0 },
      { name: 'Zoë 🐈', categoryId: -7, status: 'sold' },
      { name: 'P', categoryId: 2, status: 'pending' },
    ];
    const ids = new Set<number>();
    for (const body of sent) {
      const res = await create(body);
      expect(res.status, res.text).toBe(201);
      expectJson(res);
      rateOf(res, DAY);
      const pet = expectPet(res.json, body);
      ids.add(pet.id);
      const got = await gold('GET', `/pets/${pet.id}`);
      expect(got.status).toBe(200);
      expect(got.json).toEqual(res.json);
    }
    expect(ids.size).toBe(sent.length);
  });
  test('int64 bounds are exact, even past 2^53 (checked on the wire text)', async () => {
    for (const n of ['9223372036854775807', '-9223372036854775808']) {
      const res = await create(`{"name":"big","categoryId":${n}}`);
      expect(res.status, res.text).toBe(201);
      expect(res.text).toContain(`"categoryId":${n}`);
    }
  });
  const INVALID: Array<[string, string | Buffer]> = [
    ['missing name', '{"categoryId":1}'],
    ['missing categoryId', '{"name":"a"}'],
    ['empty object', '{}'],
    ['categoryId > int64', '{"name":"a","categoryId":9223372036854775808}'],
    ['categoryId < int64', '{"name":"a","categoryId":-9223372036854775809}'],
    ['categoryId float', '{"name":"a","categoryId":1.5}'],
    ['categoryId string', '{"name":"a","categoryId":"1"}'],
    ['categoryId true', '{"name":"a","categoryId":true}'],
    ['categoryId null', '{"name":"a","categoryId":null}'],
    ['categoryId array', '{"name":"a","categoryId":[1]}'],
    ['categoryId object', '{"name":"a","categoryId":{}}'],
    ['categoryId 1e400', '{"name":"a","categoryId":1e400}'],
    ['name number', '{"name":1,"categoryId":1}'],
    ['name null', '{"name":null,"categoryId":1}'],
    ['name array', '{"name":["a"],"categoryId":1}'],
    ['name object', '{"name":{},"categoryId":1}'],
    ['status unknown', '{"name":"a","categoryId":1,"status":"lost"}'],
    ['status upper case', '{"name":"a","categoryId":1,"status":"AVAILABLE"}'],
    ['status capitalised', '{"name":"a","categoryId":1,"status":"Available"}'],
    ['status empty', '{"name":"a","categoryId":1,"status":""}'],
    ['status null', '{"name":"a","categoryId":1,"status":null}'],
    ['status number', '{"name":"a","categoryId":1,"status":1}'],
    ['malformed JSON', '{"name":"a",'],
    ['trailing garbage', '{"name":"a","categoryId":1}x'],
    ['array body', '[{"name":"a","categoryId":1}]'],
    ['string body', '"a"'],
    ['number body', '1'],
    ['null body', 'null'],
    ['true body', 'true'],
    ['empty body', ''],
    ['whitespace body', '  \n'],
    ['invalid UTF-8', Buffer.from([...Buffer.from('{"name":"'), 0xff, 0xfe, ...Buffer.from('","categoryId":1}')])],
    ['name over 1000 code points', JSON.stringify({ name: 'x'.repeat(1001), categoryId: 1 })],
  ];
  test.for(INVALID)('400 + Error: %s', async ([, body]) => {
    expectError(await gold('POST', '/pets', { body }), 400, DAY);
  });
  test('Content-Type is not checked (GAPS.md): text/plain JSON is read', async () => {
    const res = await gold('POST', '/pets', {
      body: '{"name":"a","categoryId":1}',
      headers: { 'content-type': 'text/plain' },
    });
    expect(res.status).toBe(201);
  });
  test('unknown fields are ignored, not echoed (GAPS.md); 1.0 and 1e2 are integers', async () => {
    const res = await create('{"name":"a","categoryId":1e2,"id":5,"colour":"red"}');
    expect(res.status, res.text).toBe(201);
    expect((res.json as Record<string, unknown>).colour).toBeUndefined();
    expect((res.json as Record<string, unknown>).categoryId).toBe(100);
    expect((await create('{"name":"a","categoryId":1.0}')).status).toBe(201);
  });
  test('413 + Error + rate headers for a body over 64 KiB', async () => {
    const res = await gold('POST', '/pets', { body: JSON.stringify({ name: 'x'.repeat(70_000), categoryId: 1 }) });
    expectError(res, 413, DAY);
  });
});

describe('§4.1 list (sequential: it fills the store)', () => {
  const created: number[] = [];
  beforeAll(async () => {
    for (let batch = 0; batch < 11; batch++) {
      const statuses = ['sold', 'pending', 'available', undefined] as const;
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          create({ name: `list-${batch}-${i}`, categoryId: i, status: statuses[i % 4] }),
        ),
      );
      for (const res of results) created.push(expectPet(res.json).id);
    }
  });
  test('default 20, limit 1..100, each item a Pet', async () => {
    for (const [query, count] of [
      ['', 20],
      ['?limit=1', 1],
      ['?limit=100', 100],
      ['?limit=37', 37],
    ] as const) {
      const res = await gold('GET', `/pets${query}`);
      expect(res.status).toBe(200);
      expectJson(res);
      rateOf(res, DAY);
      expect((res.json as unknown[]).length, query).toBe(count);
      for (const pet of res.json as unknown[]) expectPet(pet);
    }
  });
  test('status filter returns only that status', async () => {
    for (const status of ['sold', 'pending', 'available']) {
      const res = await gold('GET', `/pets?status=${status}&limit=100`);
      expect(res.status).toBe(200);
      const pets = res.json as Array<{ status?: string }>;
      expect(pets.length).toBeGreaterThan(0);
      for (const pet of pets) expect(pet.status).toBe(status);
    }
  });
  test('percent-encoded query values are decoded', async () => {
    const res = await gold('GET', '/pets?status=%73old&limit=%35');
    expect(res.status, res.text).toBe(200);
    expect((res.json as unknown[]).length).toBe(5);
    for (const pet of res.json as Array<{ status?: string }>) expect(pet.status).toBe('sold');
  });
  test.for(['0', '101', '-1', 'abc', '1.5', '', '1e1', '9999999999999999999999', '5&limit=6'])(
    'limit=%s → 400 + Error (GAPS.md: reference rejects)',
    async (value) => {
      expectError(await gold('GET', `/pets?limit=${value}`), 400, DAY);
    },
  );
  test.for(['lost', 'AVAILABLE', '', 'sold&status=sold'])(
    'status=%s → 400 + Error (GAPS.md: reference rejects)',
    async (value) => {
      expectError(await gold('GET', `/pets?status=${value}`), 400, DAY);
    },
  );
  test('limit is read after percent-decoding, leading zeros and an encoded + allowed (GAPS.md)', async () => {
    for (const [query, count] of [
      ['limit=05', 5],
      ['limit=%2B5', 5],
      ['limit=%35', 5],
    ] as const) {
      expect(((await gold('GET', `/pets?${query}`)).json as unknown[]).length, query).toBe(count);
    }
    expectError(await gold('GET', '/pets?limit=+5'), 400, DAY);
  });
  test('unknown query parameters are ignored', async () => {
    const res = await gold('GET', '/pets?page=2&cursor=x&limit=3');
    expect(res.status).toBe(200);
    expect((res.json as unknown[]).length).toBe(3);
  });
  test(`the store keeps at most --max-pets ${MAX_PETS} pets: the oldest is evicted, creation never fails`, async () => {
    for (let i = 0; i < 2; i++) {
      const more = await Promise.all(Array.from({ length: 20 }, () => create({ name: 'more', categoryId: 1 })));
      for (const res of more) created.push(expectPet(res.json).id);
    }
    expect(created.length).toBeGreaterThan(MAX_PETS);
    expectError(await gold('GET', `/pets/${created[0]}`), 404, DAY);
    expect((await gold('GET', `/pets/${created.at(-1)}`)).status).toBe(200);
  });
});

describe.concurrent('§4.3 get', () => {
  test('404 + Error for an unknown id, including int64 max and negatives', async () => {
    for (const id of ['999999999', '9223372036854775807', '-1', '0']) {
      expectError(await gold('GET', `/pets/${id}`), 404, DAY);
    }
  });
  test.for(['abc', '1.5', '9223372036854775808', '-9223372036854775809', '1e2', '%20', '0x10'])(
    'petId %s is not an int64 → 400 + Error (GAPS.md)',
    async (id) => {
      expectError(await gold('GET', `/pets/${id}`), 400, DAY);
    },
  );
  test('Deprecation (RFC 9745 @<unix>, in the past) and Sunset (RFC 8594, 2030-12-05) on 200 and 404', async () => {
    const pet = expectPet((await create({ name: 'dep', categoryId: 1 })).json);
    for (const res of [await gold('GET', `/pets/${pet.id}`), await gold('GET', '/pets/999999999')]) {
      const deprecation = res.headers.deprecation ?? '';
      expect(deprecation).toMatch(/^@-?\d+$/);
      const since = Number(deprecation.slice(1)) * 1000;
      expect(since).toBeLessThanOrEqual(Date.now());
      const sunset = res.headers.sunset ?? '';
      expect(sunset).toMatch(
        /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d\d (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d\d:\d\d:\d\d GMT$/,
      );
      expect(new Date(sunset).toISOString().slice(0, 10)).toBe('2030-12-05');
      expect(since).toBeLessThan(Date.parse(sunset));
    }
  });
  test('the petId segment is percent-decoded; leading zeros allowed (GAPS.md)', async () => {
    const pet = expectPet((await create({ name: 'enc', categoryId: 1 })).json);
    for (const path of [`/pets/0${pet.id}`, `/pets/${[...String(pet.id)].map((d) => `%3${d}`).join('')}`]) {
      const res = await gold('GET', path);
      expect(res.status, path).toBe(200);
      expect(expectPet(res.json).id).toBe(pet.id);
    }
  });
  test('the list route carries no Deprecation header', async () => {
    expect((await gold('GET', '/pets?limit=1')).headers.deprecation).toBeUndefined();
  });
});

describe.concurrent('routes and methods', () => {
  test.for(['/store/orders', '/pets/', '/pets/1/', '//pets', '/Pets', '/pets/1/x', '/'])(
    'unknown path /v1%s → 404 + Error',
    async (path) => {
      expectError(await gold('GET', path), 404, DAY);
    },
  );
  test('paths outside /v1 → 404 + Error', async () => {
    for (const path of ['/v2/pets', '/pets', '/V1/pets', '/v1pets']) {
      expectError(await call(srv.origin, 'GET', path, { key: 'kg' }), 404, DAY);
    }
  });
  test('405 + Error + Allow for other methods', async () => {
    const cases = [
      ['DELETE', '/pets', 'GET, HEAD, POST'],
      ['PUT', '/pets', 'GET, HEAD, POST'],
      ['PATCH', '/pets', 'GET, HEAD, POST'],
      ['OPTIONS', '/pets', 'GET, HEAD, POST'],
      ['POST', '/pets/1', 'GET, HEAD'],
      ['DELETE', '/pets/1', 'GET, HEAD'],
      ['OPTIONS', '/pets/1', 'GET, HEAD'],
    ];
    for (const [method, path, allow] of cases) {
      const res = await gold(method!, path!);
      expectError(res, 405, DAY);
      expect(res.headers.allow, `${method} ${path}`).toBe(allow);
    }
  });
  test('the absolute-form request-target is accepted (RFC 9112 §3.2.2: a server MUST)', async () => {
    const got = await rawExchange(
      srv.origin,
      `GET ${srv.baseUrl}/pets?limit=1 HTTP/1.1\r\nHost: ${new URL(srv.origin).host}\r\n` +
        'Authorization: Bearer kg\r\nConnection: close\r\n\r\n',
    );
    expect(got).toMatch(/^HTTP\/1\.1 200 /);
    expect(got).toMatch(/\r\n\r\n\[/);
  });
  test('HEAD is answered as GET without a body, with the rate-limit headers', async () => {
    for (const [path, status] of [
      ['/pets', 200],
      ['/pets/999999999', 404],
      ['/pets?limit=0', 400],
    ] as const) {
      const res = await gold('HEAD', path);
      expect(res.status, path).toBe(status);
      expect(res.text).toBe('');
      expectJson(res);
      rateOf(res, DAY);
    }
  });
});
