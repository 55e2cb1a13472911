// §5: `Authorization: Bearer <API_KEY>`. The scheme name is case-insensitive (RFC 9110 §11.1);
// the token is compared exactly. Keys live in a Map so "__proto__" or "constructor" are just unknown keys.
const BEARER = /^bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

/** The API key in an Authorization header, or undefined when absent or not a Bearer credential. */
export function bearerToken(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  return BEARER.exec(header)?.[1];
}

/**
 * Every Authorization line of a request, joined as RFC 9110 §5.3 combines repeated fields. Node keeps
 * only the first line, but two credentials are ambiguous (a proxy in front may honour the other one);
 * joined, they match no Bearer credential, so the request gets 401 whichever line held a valid key.
 */
export function authorizationLines(rawHeaders: readonly string[]): string | undefined {
  let joined: string | undefined;
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    if (rawHeaders[i]!.toLowerCase() !== 'authorization') continue;
    joined = joined === undefined ? rawHeaders[i + 1]! : `${joined}, ${rawHeaders[i + 1]!}`;
  }
  return joined;
}
