// §5: `Authorization: Bearer <API_KEY>`. The scheme name is case-insensitive (RFC 9110 §11.1);
// the token is compared exactly. Keys live in a Map so "__proto__" or "constructor" are just unknown keys.
const BEARER = /^bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

/** The API key in an Authorization header, or undefined when absent or not a Bearer credential. */
export function bearerToken(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  return BEARER.exec(header)?.[1];
}
