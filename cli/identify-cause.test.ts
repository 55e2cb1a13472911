import { describe, expect, test } from 'vitest';
import type { Observation } from '../spec/identity.ts';
import { probeRequest } from '../spec/identity.ts';
import { clientSideCause } from './identify-cause.ts';

const BASE = 'https://staging.example.com/v1';
const failed = (transport: Observation['transport'], error: string): Observation => ({
  probe: 'list-without-key',
  request: probeRequest('list-without-key', BASE, 'k'),
  error,
  transport,
});
const answered = (status: number, body: string): Observation => ({
  probe: 'list-without-key',
  request: probeRequest('list-without-key', BASE, 'k'),
  response: { status, headers: { 'content-type': 'text/html' }, body },
});

describe('clientSideCause', () => {
  test.for([
    [
      'TLS',
      "GET https://staging.example.com/v1/pets?limit=1: the server's certificate is not trusted (X): give the CA",
      false,
    ],
    ['PROXY', 'GET https://staging.example.com/v1/pets?limit=1: the proxy http://p:1 refused to connect (403)', false],
    [
      'DNS',
      'GET https://staging.example.com/v1/pets?limit=1: cannot resolve staging.example.com (ENOTFOUND), with no proxy in use',
      true,
    ],
  ] as const)(
    "a %s failure is this side's, its message without the request line; the URL is checked only for DNS",
    ([transport, error, checkUrl]) => {
      const cause = clientSideCause(BASE, [failed(transport, error)]);
      expect(cause).toEqual({ why: error.replace(/^GET \S+: /, ''), checkUrl });
    },
  );

  test("a refused or reset connection, a timeout: not called this side's (the URL or the server may be wrong)", () => {
    for (const t of ['CONNECTION_REFUSED', 'CONNECTION_RESET', 'TIMEOUT', 'PROTOCOL'] as const)
      expect(clientSideCause(BASE, [failed(t, 'x')])).toBeUndefined();
  });

  test('nginx asking for a client certificate, or refusing the one given', () => {
    expect(
      clientSideCause(BASE, [answered(400, '<title>400 No required SSL certificate was sent</title>')]),
    ).toMatchObject({ fix: expect.stringMatching(/--client-cert PATH --client-key PATH/) });
    expect(clientSideCause(BASE, [answered(400, '<title>400 The SSL certificate error</title>')])?.why).toMatch(
      /refused the client certificate given/,
    );
  });

  test('plain HTTP sent to a TLS port suggests https://', () => {
    expect(
      clientSideCause('http://staging.example.com:8443/v1', [
        answered(400, 'The plain HTTP request was sent to HTTPS port'),
      ])?.suggest,
    ).toBe('https://staging.example.com:8443/v1');
  });

  test("any other page is the base URL's answer, judged as before", () => {
    expect(clientSideCause(BASE, [answered(404, '<h1>Not Found</h1>')])).toBeUndefined();
  });
});
