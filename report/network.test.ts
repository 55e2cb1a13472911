// A report made with --insecure says so in every rendering; one made through a proxy names it (redacted upstream).
import { describe, expect, test } from 'vitest';
import { toHtml } from './html.ts';
import { toJUnit } from './junit.ts';
import { TLS_OFF_TEXT, type Report } from './model.ts';

const report = (network: Report['network']): Report => ({
  tool: 'petcert',
  version: 't',
  kind: 'conform',
  target: 'https://staging.example.com/v1',
  startedAt: '2026-01-01T00:00:00.000Z',
  finishedAt: '2026-01-01T00:00:01.000Z',
  seed: 1,
  requests: 1,
  checks: [],
  ...(network ? { network } : {}),
});

describe('the network in the renderings', () => {
  test('TLS verification off: JUnit and HTML say "TLS verification was off"', () => {
    const r = report({ proxy: null, tlsVerification: 'off' });
    expect(toJUnit(r)).toContain(`<property name="tls" value="${TLS_OFF_TEXT.replace("'", '&apos;')}"/>`);
    expect(toHtml(r)).toContain('TLS verification was off');
  });

  test('verification on: neither says it was off; JUnit names the proxy', () => {
    const r = report({ proxy: 'http://***@proxy.corp:3128', tlsVerification: 'on' });
    expect(toJUnit(r)).not.toContain('TLS verification was off');
    expect(toHtml(r)).not.toContain('TLS verification was off');
    expect(toJUnit(r)).toContain('<property name="proxy" value="http://***@proxy.corp:3128"/>');
  });
});
