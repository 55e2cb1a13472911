// Each variant is another correct answer to a gap (spec/GAPS.md); here: it does what it says.
import { describe, expect, test } from 'vitest';
import { parsePlansFile } from '../spec/plans.ts';
import { parseRetryAfter } from '../spec/ratelimit.ts';
import type { ReferenceVariants } from './variants.ts';
import { bodyOf, fakeClock, inProcess, rate } from '../testkit/reference/in-process.ts';

const T0 = Date.UTC(2030, 0, 1, 0, 0, 0);
const plans = parsePlansFile({
  windows: { minuteSeconds: 2, daySeconds: 40 },
  plans: { tiny: { perMinute: 3, perDay: 5 } },
});
const tiny = (variants: ReferenceVariants, clock = fakeClock(T0 + 500)) =>
  inProcess({ now: clock.now, plans, variants }, 'tiny');

const ids = (res: { body: string }) => (JSON.parse(res.body) as { id: number }[]).map((p) => p.id);

describe('rate-limit variants', () => {
  test('headerQuota: minute or day regardless of which is closer', async () => {
    expect(rate(await tiny({ headerQuota: 'minute' })('GET', '/v1/pets')).limit).toBe(3);
    expect(rate(await tiny({ headerQuota: 'day' })('GET', '/v1/pets'))).toEqual({
      limit: 5,
      remaining: 4,
      reset: T0 / 1000 + 40,
    });
  });

  test('retryAfterForm http-date: a date at the reset, read back with the Date header', async () => {
    const call = tiny({ retryAfterForm: 'http-date' });
    for (let i = 0; i < 3; i++) await call('GET', '/v1/pets');
    const res = await call('GET', '/v1/pets');
    expect(res.headers['retry-after']).toBe(new Date(T0 + 2000).toUTCString());
    expect(parseRetryAfter(res.headers)).toMatchObject({ ok: true });
  });

  test('rejectedConsume: 429s count in the current windows', async () => {
    const clock = fakeClock(T0 + 500);
    const call = tiny({ rejectedConsume: true }, clock);
    for (let i = 0; i < 5; i++) await call('GET', '/v1/pets'); // 3 admitted + 2 refused = day spent
    clock.advance(2000);
    expect((await call('GET', '/v1/pets')).status).toBe(429);
  });

  test.for([
    ['empty', ''],
    ['text', 'rate limit exceeded: retry after 2 s'],
  ] as const)('tooManyBody %s', async ([shape, body]) => {
    const call = tiny({ tooManyBody: shape });
    for (let i = 0; i < 3; i++) await call('GET', '/v1/pets');
    const res = await call('GET', '/v1/pets');
    expect([res.status, res.body]).toEqual([429, body]);
  });
});

describe('resource variants', () => {
  test('defaultStatus: available when omitted (default: left out)', async () => {
    expect(bodyOf(await inProcess()('POST', '/v1/pets', { body: '{"name":"a","categoryId":1}' }))).not.toHaveProperty(
      'status',
    );
    const res = await inProcess({ variants: { defaultStatus: 'available' } })('POST', '/v1/pets', {
      body: '{"name":"a","categoryId":1}',
    });
    expect(bodyOf(res)).toMatchObject({ status: 'available' });
  });

  test('order newest and shuffled', async () => {
    for (const order of ['newest', 'shuffled'] as const) {
      const call = inProcess({ variants: { order } }, 'business');
      for (let i = 0; i < 30; i++) await call('POST', '/v1/pets', { body: '{"name":"a","categoryId":1}' });
      const got = ids(await call('GET', '/v1/pets?limit=30'));
      expect([...got].sort((a, b) => a - b)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
      if (order === 'newest') expect(got[0]).toBe(30);
      else expect(got).not.toEqual([...got].sort((a, b) => a - b)); // 1/30! chance of a false failure
    }
  });

  test('limitOutOfRange clamp; unknownStatusFilter empty; badPetId 404', async () => {
    const call = inProcess(
      { variants: { limitOutOfRange: 'clamp', unknownStatusFilter: 'empty', badPetId: 404 } },
      'business',
    );
    for (let i = 0; i < 3; i++) await call('POST', '/v1/pets', { body: '{"name":"a","categoryId":1}' });
    expect(ids(await call('GET', '/v1/pets?limit=0'))).toHaveLength(1);
    expect(ids(await call('GET', '/v1/pets?limit=1000'))).toHaveLength(3);
    expect(ids(await call('GET', '/v1/pets?limit=abc'))).toHaveLength(3);
    const lost = await call('GET', '/v1/pets?status=lost');
    expect([lost.status, lost.body]).toEqual([200, '[]']);
    const bad = await call('GET', '/v1/pets/abc');
    expect([bad.status, (bodyOf(bad) as { status: number }).status]).toEqual([404, 404]);
  });

  test('maxNameLength, unknownFields reject, categories', async () => {
    const call = inProcess({ variants: { maxNameLength: 2, unknownFields: 'reject', categories: [1] } });
    expect((await call('POST', '/v1/pets', { body: '{"name":"ab","categoryId":1}' })).status).toBe(201);
    expect((await call('POST', '/v1/pets', { body: '{"name":"abc","categoryId":1}' })).status).toBe(400);
    expect((await call('POST', '/v1/pets', { body: '{"name":"a","categoryId":1,"x":1}' })).status).toBe(400);
    expect((await call('POST', '/v1/pets', { body: '{"name":"a","categoryId":2}' })).status).toBe(400);
  });

  test('integerForms strict: 1.0 and 1e2 refused, 1 accepted', async () => {
    const call = inProcess({ variants: { integerForms: 'strict' } });
    expect((await call('POST', '/v1/pets', { body: '{"name":"a","categoryId":1}' })).status).toBe(201);
    expect((await call('POST', '/v1/pets', { body: '{"name":"a","categoryId":1.0}' })).status).toBe(400);
    expect((await call('POST', '/v1/pets', { body: '{"name":"a","categoryId":1e2}' })).status).toBe(400);
    const lax = inProcess();
    expect((await lax('POST', '/v1/pets', { body: '{"name":"a","categoryId":1e2}' })).status).toBe(201);
  });

  test('precedence validation: bad key + bad body → 400; bad key + good body → 401', async () => {
    const call = inProcess({ variants: { precedence: 'validation' } });
    const bad = await call('POST', '/v1/pets', { key: 'nope', body: '{"name":1}' });
    expect([bad.status, bad.headers['x-ratelimit-limit']]).toEqual([400, '60']);
    expect((await call('POST', '/v1/pets', { key: 'nope', body: '{"name":"a","categoryId":1}' })).status).toBe(401);
    expect((await inProcess()('POST', '/v1/pets', { key: 'nope', body: '{"name":1}' })).status).toBe(401);
  });

  test('errorContentType problem+json on every Error', async () => {
    const call = inProcess({ variants: { errorContentType: 'application/problem+json' } });
    expect((await call('GET', '/v1/pets', { key: 'x' })).headers['content-type']).toBe('application/problem+json');
    expect((await call('GET', '/v1/pets/99')).headers['content-type']).toBe('application/problem+json');
    expect((await call('GET', '/v1/pets')).headers['content-type']).toBe('application/json');
  });
});
