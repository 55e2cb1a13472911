// Authorization headers §5 says must be refused with 401: missing, another scheme, the bare key,
// Bearer with an empty, malformed or unknown token. Never a Basic credential built from the real key:
// its base64 form would slip past redaction.
import fc from 'fast-check';

export interface Credential {
  kind: string;
  /** The Authorization header value; undefined: no header at all. */
  header: string | undefined;
}

export const MISSING: Credential = { kind: 'missing', header: undefined };
/** A well-formed Basic credential that is not built from the key (see above). */
export const BASIC: Credential = {
  kind: 'basic',
  header: `Basic ${Buffer.from('petcert:not-a-key').toString('base64')}`,
};

const TOKEN68 = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~+/';

export function unknownToken(apiKey: string): fc.Arbitrary<string> {
  return fc
    .oneof(
      fc.string({ unit: fc.constantFrom(...TOKEN68), minLength: 1, maxLength: 40 }),
      fc.constant(`${apiKey}x`),
      fc.constant(apiKey.slice(0, -1)),
      // Not the key in another case: §5 leaves the keys' form open, and a server whose keys are
      // case-insensitive (UUIDs read as UUIDs) rightly accepts it (alternative caseInsensitiveKeys).
    )
    .filter((t) => t !== apiKey && t.length > 0);
}

export function invalidCredential(apiKey: string): fc.Arbitrary<Credential> {
  return fc.oneof(
    fc.constant(MISSING),
    fc.constant(BASIC),
    fc.constant({ kind: 'bare-key', header: apiKey }),
    fc.constantFrom('Bearer', 'Bearer ').map((header) => ({ kind: 'bearer-empty', header })),
    fc
      .constantFrom('Bearer ===', 'Bearer a b', 'Bearer "quoted"', 'Bearer ,', 'Bearer{}')
      .map((header) => ({ kind: 'bearer-malformed', header })),
    unknownToken(apiKey).map((t) => ({ kind: 'bearer-unknown', header: `Bearer ${t}` })),
  );
}

/** The lenient-auth mistakes seen most: no header, the bare key, a near-copy of the key, a Basic credential. */
export function invalidCredentialExamples(apiKey: string): Credential[] {
  return [
    MISSING,
    { kind: 'bare-key', header: apiKey },
    { kind: 'bearer-unknown', header: `Bearer ${apiKey}x` },
    BASIC,
  ];
}

/** RFC 9110 §11.1: the scheme name is case-insensitive. */
export function schemeCaseVariant(apiKey: string): fc.Arbitrary<Credential> {
  return fc
    .constantFrom('bearer', 'BEARER', 'bEaReR')
    .map((scheme) => ({ kind: `scheme-${scheme}`, header: `${scheme} ${apiKey}` }));
}
