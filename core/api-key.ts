// What petcert accepts as an API key, for every command and the config file alike. §5 sends the key as
// `Authorization: Bearer <API_KEY>`; a header value carries visible ASCII, and a space would split the
// credential, so a key is one or more visible ASCII characters. Keys read from the environment are
// trimmed first: `export KEY=$(cat key.txt)`-style secrets often carry a newline no key can contain.
import { ConfigError } from './errors.ts';

const API_KEY = /^[\x21-\x7e]+$/;

export function checkApiKey(key: string, field: string, what = 'the key'): string {
  if (!API_KEY.test(key))
    throw new ConfigError(
      `${what} is empty or has characters a Bearer token cannot carry (visible ASCII only, no spaces)`,
      field,
    );
  return key;
}

export function apiKeyFromEnv(
  env: Record<string, string | undefined>,
  name: string,
  field: string,
  what = 'the key',
): string {
  const key = env[name]?.trim();
  if (!key)
    throw new ConfigError(
      `environment variable ${name} (${what}) is not set or empty: export ${name}=... first`,
      field,
    );
  return checkApiKey(key, field, what);
}
