import { describe, expect, test } from 'vitest';
import type { HttpResponse } from '../core/exchange.ts';
import {
  candidateBases,
  classify,
  judgeIdentity,
  nextProbe,
  probeRequest,
  type Observation,
  type ProbeName,
} from './identity.ts';

const BASE = 'http://127.0.0.1:8080/api/v1';
const json = (status: number, body: unknown, headers: Record<string, string> = {}): HttpResponse => ({
  status,
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});
const html = (status: number): HttpResponse => ({
  status,
  headers: { 'content-type': 'text/html' },
  body: `<html><title>${status}</title></html>`,
});
const error = (status: number) => json(status, { code: 'X', message: 'x', status });
const PETS = [{ id: 1, name: 'Rex', categoryId: 1 }];
const seen = (probe: ProbeName, response: HttpResponse): Observation => ({
  probe,
  request: probeRequest(probe, BASE, 'k1'),
  response,
});

describe('probeRequest', () => {
  test('only the key probes carry the key; createPet sends {} (refused by §4.2, nothing created)', () => {
    expect(probeRequest('list-without-key', BASE, 'k1')).toMatchObject({ method: 'GET', url: `${BASE}/pets?limit=1` });
    expect(probeRequest('list-without-key', BASE, 'k1').headers.authorization).toBeUndefined();
    expect(probeRequest('create-invalid', BASE, 'k1')).toMatchObject({
      method: 'POST',
      body: '{}',
      headers: { authorization: 'Bearer k1' },
    });
  });
});

describe('classify: what one answer proves', () => {
  test.for([
    ['list', json(200, PETS), 'api'],
    ['list', json(200, []), 'api'],
    ['create-invalid', error(400), 'api'],
    ['list-without-key', error(401), 'plausible'],
    ['list', json(429, {}), 'plausible'],
    ['list', error(503), 'plausible'],
    // A wrong Content-Type is a defect the checks report, not another service.
    ['list', { status: 200, headers: { 'content-type': 'text/plain' }, body: JSON.stringify(PETS) }, 'api'],
    ['list-without-key', json(401, { message: 'Unauthorized' }), 'foreign'],
    ['list', json(200, [{ id: 1, name: 'Rex', tag: 'dog' }]), 'foreign'],
    ['list', json(404, { code: 'NOT_FOUND', message: 'no such resource', status: 404 }), 'alien'],
    ['list-without-key', html(404), 'alien'],
    ['list-without-key', html(200), 'alien'],
    ['list-without-key', html(502), 'alien'],
    ['create-without-key', html(501), 'alien'],
    ['list-without-key', { status: 301, headers: { location: '/v1/pets?limit=1' }, body: '' }, 'alien'],
  ] as const)('%s answered %o → %s', ([probe, response, kind]) => {
    expect(classify(probe, response).kind).toBe(kind);
  });
});

describe('nextProbe and judgeIdentity', () => {
  const run = (answers: Partial<Record<ProbeName, HttpResponse>>) => {
    const observed: Observation[] = [];
    for (let p = nextProbe(observed); p !== undefined; p = nextProbe(observed)) observed.push(seen(p, answers[p]!));
    return { probes: observed.map((o) => o.probe), verdict: judgeIdentity(observed).identity };
  };

  test('a correct server: one request without the key, one with it', () => {
    expect(run({ 'list-without-key': error(401), list: json(200, PETS) })).toEqual({
      probes: ['list-without-key', 'list'],
      verdict: 'animal-store',
    });
  });

  test('a wrong prefix on a server that authenticates first (401 + Error everywhere): the key decides, two operations refuse', () => {
    const r = run({
      'list-without-key': error(401),
      list: json(404, { code: 'NOT_FOUND', message: 'x', status: 404 }),
      'create-invalid': json(404, { code: 'NOT_FOUND', message: 'x', status: 404 }),
    });
    expect(r).toEqual({ probes: ['list-without-key', 'list', 'create-invalid'], verdict: 'not-animal-store' });
  });

  test('a static file server: two operations without the key settle it, the key is never sent', () => {
    expect(run({ 'list-without-key': html(404), 'create-without-key': html(501) })).toEqual({
      probes: ['list-without-key', 'create-without-key'],
      verdict: 'not-animal-store',
    });
  });

  test('listPets alone broken (404) is the API with a defect: createPet answers like it', () => {
    const r = run({
      'list-without-key': html(404),
      'create-without-key': error(401),
      list: html(404),
      'create-invalid': error(400),
    });
    expect(r.verdict).toBe('animal-store');
  });

  test('a refused key or a rate limit cannot tell: undecided, the run judges (never exit 3 on that)', () => {
    expect(run({ 'list-without-key': error(401), list: error(401) }).verdict).toBe('undecided');
    expect(run({ 'list-without-key': error(401), list: json(429, {}) }).verdict).toBe('undecided');
    expect(run({ 'list-without-key': error(401), list: error(500) }).verdict).toBe('undecided');
  });

  test('a real server with a broken 401 body is not refused on its unauthenticated answers alone', () => {
    expect(run({ 'list-without-key': json(401, { message: 'no' }), list: json(200, PETS) }).verdict).toBe(
      'animal-store',
    );
  });

  test('no HTTP answer: refused at once', () => {
    const observed: Observation[] = [
      {
        probe: 'list-without-key',
        request: probeRequest('list-without-key', BASE, 'k'),
        error: 'refused',
        transport: 'CONNECTION_REFUSED',
      },
    ];
    expect(nextProbe(observed)).toBeUndefined();
    expect(judgeIdentity(observed)).toMatchObject({ identity: 'not-animal-store', why: 'no HTTP answer' });
  });
});

describe('candidateBases', () => {
  test('a prefix removed; /api added to a bare /v1; where a redirect points (another host: not to be asked)', () => {
    expect(candidateBases('http://h:1/api/v1', []).map((c) => c.base)).toEqual(['http://h:1/v1']);
    expect(candidateBases('http://h:1/a/b/v1', []).map((c) => c.base)).toEqual(['http://h:1/b/v1', 'http://h:1/v1']);
    expect(candidateBases('http://h:1/v1', [])).toEqual([
      { base: 'http://h:1/api/v1', probe: true, why: 'the path under /api' },
    ]);
    const redirected = seen('list-without-key', {
      status: 308,
      headers: { location: 'https://other:2/v1/pets?limit=1' },
      body: '',
    });
    expect(candidateBases('http://h:1/v1', [redirected])[0]).toMatchObject({
      base: 'https://other:2/v1',
      probe: false,
    });
  });

  test('no HTTP answer: only the other scheme, and only when something answered at the transport level', () => {
    const tls: Observation = {
      probe: 'list-without-key',
      request: probeRequest('list-without-key', 'https://h:1/v1', 'k'),
      error: 'SSL',
      transport: 'OTHER',
    };
    expect(candidateBases('https://h:1/v1', [tls]).map((c) => c.base)).toEqual(['http://h:1/v1']);
    expect(candidateBases('https://h:1/v1', [{ ...tls, transport: 'CONNECTION_REFUSED' }])).toEqual([]);
  });
});
