import { describe, expect, it } from 'vitest';
import { parseBaseUrl } from './base-url.ts';

describe('parseBaseUrl', () => {
  it('keeps origin and path, without trailing slashes', () => {
    expect(parseBaseUrl('http://127.0.0.1:8080/shop/v1//', '--base-url')).toBe('http://127.0.0.1:8080/shop/v1');
  });
  it.for([
    ['not a URL', 'staging', /--base-url: is not a URL/],
    ['another scheme', 'ftp://x.example/v1', /must be http or https/],
    ['credentials (URL.origin would drop them silently)', 'https://u:p@x.example/v1', /must not carry credentials/],
    ['a query', 'https://x.example/v1?a=1', /query or fragment/],
    ['no version segment', 'https://x.example/api', /must end in the version segment \/v1/],
  ])('refuses %s, naming the field', ([, url, message]) => {
    expect(() => parseBaseUrl(url as string, '--base-url')).toThrow(message as RegExp);
  });
});
