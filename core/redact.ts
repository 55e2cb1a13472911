// Secrets (API keys) must never reach an artifact, whatever their length (docs/decisions/005). Two layers:
// structurally, where a request is recorded (the credential of its Authorization header is compared
// with every configured key: no text search, so a key of any length goes), and every artifact's final
// text scrubbed again before it is written. The text search cannot tell a short key from ordinary text
// inside a word, so a key shorter than 4 characters is redacted only as a whole token.

export const REDACTED = '***';

/** Keys at least this long are also redacted as near-copies (see secretPattern). */
const NEAR_COPY_MIN_LENGTH = 12;
const NEAR_COPY_DROPPED_CHARS = 2;
/** Shorter keys are redacted in text only as whole tokens (a bearer token's characters around them end them). */
const WHOLE_TOKEN_BELOW = 4;
/** RFC 6750 b64token characters: a short key next to one of these is part of a longer word, not the key. */
const TOKEN_CHAR = 'A-Za-z0-9\\-._~+/=';

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The secret, and for long keys its near-copies too: the deliberately invalid credentials of the auth
 * checks (the key in another case, the key minus its last character) give away all of it but a guess.
 */
function secretPattern(secret: string): RegExp {
  // No lookbehind (the k6 runtimes' regexps): the character before is captured and put back.
  if (secret.length < WHOLE_TOKEN_BELOW)
    return new RegExp(`(^|[^${TOKEN_CHAR}])${escape(secret)}(?![${TOKEN_CHAR}])`, 'g');
  if (secret.length < NEAR_COPY_MIN_LENGTH) return new RegExp(escape(secret), 'g');
  const head = secret.slice(0, secret.length - NEAR_COPY_DROPPED_CHARS);
  const tail = [...secret.slice(head.length)].reduceRight((rest, ch) => `(?:${escape(ch)}${rest})?`, '');
  return new RegExp(escape(head) + tail, 'gi');
}

export function redactText(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    // A one-character key as a whole token would still shred ordinary text: it is redacted structurally only.
    if (secret.length < 2) continue;
    out =
      secret.length < WHOLE_TOKEN_BELOW
        ? out.replace(secretPattern(secret), `$1${REDACTED}`)
        : out.replace(secretPattern(secret), REDACTED);
  }
  return out;
}

/**
 * Whether a credential gives a configured key away: the key itself in any case, the key inside it, or
 * the key with its last characters dropped (the auth checks' deliberately invalid near-copies).
 */
export function isKeyCopy(credential: string, secrets: readonly string[]): boolean {
  const sent = credential.trim().toLowerCase();
  if (sent === '') return false;
  return secrets.some((secret) => {
    const key = secret.toLowerCase();
    const dropped = Math.min(NEAR_COPY_DROPPED_CHARS, Math.floor(key.length / 3));
    return sent.includes(key) || (dropped > 0 && key.startsWith(sent) && sent.length >= key.length - dropped);
  });
}

/** `<scheme> <credential>` with the credential redacted when it gives a configured key away; otherwise the text scrub. */
export function redactAuthorization(value: string, secrets: readonly string[]): string {
  const m = /^(\s*\S+\s+)(\S.*)$/.exec(value);
  const [scheme, credential] = m ? [m[1]!, m[2]!] : ['', value];
  return isKeyCopy(credential, secrets) ? `${scheme}${REDACTED}` : redactText(value, secrets);
}

/** `Bearer <key>` → `Bearer ***` for a configured key (and its near-copies); other credentials stay visible. */
export function redactHeaders(headers: Record<string, string>, secrets: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers))
    out[name] =
      name.toLowerCase() === 'authorization' ? redactAuthorization(value, secrets) : redactText(value, secrets);
  return out;
}
