import { describe, expect, test } from 'vitest';
import { ConfigError } from '../core/errors.ts';
import { parseProxyUrl, proxyFor, proxySourceFor, redactProxy, resolveProxy } from './proxy.ts';

describe('resolveProxy', () => {
  test('reads the lower-case variable before the upper-case one, as curl does', () => {
    const p = resolveProxy(undefined, {
      https_proxy: 'http://lower:1',
      HTTPS_PROXY: 'http://upper:2',
      HTTP_PROXY: 'plain:3',
    });
    expect(p.https).toBe('http://lower:1');
    expect(p.from.https).toBe('https_proxy');
    expect(p.http).toBe('http://plain:3');
  });

  test('--proxy overrides the environment for both schemes', () => {
    const p = resolveProxy({ url: 'http://cli:9', field: '--proxy' }, { HTTPS_PROXY: 'http://env:1' });
    expect([p.http, p.https, p.from.https]).toEqual(['http://cli:9', 'http://cli:9', '--proxy']);
  });

  test('no variable: direct', () => {
    const p = resolveProxy(undefined, {});
    expect(proxyFor('https://staging.example.com/v1', p)).toBeUndefined();
  });

  test('a bad proxy URL is a usage error naming its variable, its password redacted', () => {
    expect(() => resolveProxy(undefined, { HTTPS_PROXY: 'ftp://u:secretpw@x:1' })).toThrow(ConfigError);
    expect(() => resolveProxy(undefined, { HTTPS_PROXY: 'ftp://u:secretpw@x:1' })).toThrow(
      /^HTTPS_PROXY: must be an http/,
    );
    expect(() => parseProxyUrl('http://u:secretpw@x:1/path', '--proxy')).toThrow(/u:\*\*\*|\*\*\*@x/);
    expect(() => parseProxyUrl('http://u:secretpw@x:1/path', '--proxy')).not.toThrow(/secretpw/);
  });
});

describe('proxyFor', () => {
  const p = resolveProxy(undefined, {
    HTTPS_PROXY: 'http://proxy:3128',
    HTTP_PROXY: 'http://proxy:3129',
    NO_PROXY: 'internal.example.com,.corp,direct:8443',
  });

  test.for([
    ['https://staging.example.com/v1', 'http://proxy:3128'],
    ['http://staging.example.com/v1', 'http://proxy:3129'],
    ['https://internal.example.com/v1', undefined],
    ['https://api.internal.example.com/v1', undefined],
    ['https://a.corp/v1', undefined],
    ['https://direct:8443/v1', undefined],
    ['https://direct:9443/v1', 'http://proxy:3128'],
    ['https://127.0.0.1:8443/v1', undefined],
    ['http://localhost:8080/v1', undefined],
  ] as const)('%s → %s', ([url, proxy]) => {
    expect(proxyFor(url, p)).toBe(proxy);
  });

  test('NO_PROXY=* sends everything direct', () => {
    expect(
      proxyFor('https://x.example.com/v1', resolveProxy(undefined, { HTTPS_PROXY: 'http://p:1', no_proxy: '*' })),
    ).toBeUndefined();
  });

  test('says where the proxy came from', () => {
    expect(proxySourceFor('https://x.example.com/v1', p)).toBe('HTTPS_PROXY');
    expect(proxySourceFor('http://x.example.com/v1', p)).toBe('HTTP_PROXY');
  });
});

test('redactProxy hides the user and password of a proxy URL', () => {
  expect(redactProxy('http://alice:s3cret@proxy.corp:3128')).toBe('http://***@proxy.corp:3128');
  expect(redactProxy('http://proxy.corp:3128')).toBe('http://proxy.corp:3128');
});
