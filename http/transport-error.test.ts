import { describe, expect, test } from 'vitest';
import { kindOf, toTransportError } from './transport-error.ts';

const req = {
  method: 'GET',
  url: 'https://staging.example.com:8443/v1/pets',
  headers: { authorization: 'Bearer pc-secret-key-123456' },
};

describe('kindOf', () => {
  test("undici's refused tunnel (a RequestAbortedError, named AbortError) is the proxy's, not a timeout", () => {
    const refused = {
      name: 'AbortError',
      code: 'UND_ERR_ABORTED',
      message: 'Proxy response (407) !== 200 when HTTP Tunneling',
    };
    expect(kindOf(refused, 'http://p:1')).toBe('PROXY');
    expect(kindOf({ name: 'AbortError', code: 'UND_ERR_ABORTED', message: 'aborted' })).toBe('TIMEOUT');
  });

  test("proxied, a refused connection or an unknown name is the proxy's; direct, the target's", () => {
    expect(kindOf({ code: 'ECONNREFUSED' }, 'http://p:1')).toBe('PROXY');
    expect(kindOf({ code: 'ECONNREFUSED' })).toBe('CONNECTION_REFUSED');
    expect(kindOf({ code: 'ENOTFOUND' })).toBe('DNS');
  });

  test.for([
    'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
    'ERR_TLS_CERT_ALTNAME_INVALID',
    'ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED',
    'CERT_HAS_EXPIRED',
  ])('%s is TLS', (code) => {
    expect(kindOf({ code })).toBe('TLS');
    expect(kindOf({ code: 'UND_ERR_SOCKET', cause: { code } })).toBe('TLS');
  });
});

describe('toTransportError', () => {
  test("each client-side cause carries its fix; never the key, never the proxy's password", () => {
    const untrusted = toTransportError({ code: 'SELF_SIGNED_CERT_IN_CHAIN' }, req, 1000);
    expect(untrusted.message).toMatch(
      /^GET https:\/\/staging\.example\.com:8443\/v1\/pets: the server's certificate is not trusted \(SELF_SIGNED_CERT_IN_CHAIN\): give the CA .*--ca-file/,
    );
    const wanted = toTransportError({ code: 'ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED' }, req, 1000);
    expect(wanted.message).toMatch(/--client-cert PATH --client-key PATH/);
    const proxied = toTransportError(
      { code: 'ECONNREFUSED', message: 'Bearer pc-secret-key-123456' },
      req,
      1000,
      'http://ci:pw-9z@proxy:3128',
    );
    expect(proxied.message).toMatch(
      /cannot connect to the proxy http:\/\/\*\*\*@proxy:3128 \(ECONNREFUSED\).* NO_PROXY/,
    );
    expect(proxied.message).not.toMatch(/pw-9z|pc-secret/);
    expect(toTransportError({ code: 'ENOTFOUND' }, req, 1000, 'http://p:1').transport).toBe('PROXY');
  });
});
