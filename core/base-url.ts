// The base URL of a target, as `conform` flags and `certify` config files give it. Node only: k6 has
// no URL class (the k6 scripts take BASE_URL as it is).
import { ConfigError } from './errors.ts';

/** http(s) only, no credentials in the URL, and the path ends in the version segment (§1); no trailing slash. */
export function parseBaseUrl(text: string, field: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ConfigError(
      `is not a URL: ${JSON.stringify(text)} (expected e.g. "https://staging.example.com/v1")`,
      field,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ConfigError(`must be http or https, got ${url.protocol}`, field);
  // URL.origin drops user:password@, so they would silently not be sent: the key belongs in a flag or variable.
  if (url.username || url.password)
    throw new ConfigError('must not carry credentials; put the key in an environment variable', field);
  if (url.search || url.hash) throw new ConfigError('must not carry a query or fragment', field);
  const path = url.pathname.replace(/\/+$/, '');
  if (!path.endsWith('/v1'))
    throw new ConfigError(`must end in the version segment /v1 (§1), got path ${JSON.stringify(url.pathname)}`, field);
  return `${url.origin}${path}`;
}
