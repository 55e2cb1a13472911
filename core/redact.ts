// Secrets (API keys) must never reach an artifact. Two layers: requests are redacted where they are
// recorded, and every artifact's final text is scrubbed again before it is written.

export const REDACTED = '***';

/** Keys at least this long are also redacted as near-copies (see secretPattern). */
const NEAR_COPY_MIN_LENGTH = 12;
const NEAR_COPY_DROPPED_CHARS = 2;

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The secret, and for long keys its near-copies too: the deliberately invalid credentials of the auth
 * checks (the key in another case, the key minus its last character) give away all of it but a guess.
 */
function secretPattern(secret: string): RegExp {
  if (secret.length < NEAR_COPY_MIN_LENGTH) return new RegExp(escape(secret), 'g');
  const head = secret.slice(0, secret.length - NEAR_COPY_DROPPED_CHARS);
  const tail = [...secret.slice(head.length)].reduceRight((rest, ch) => `(?:${escape(ch)}${rest})?`, '');
  return new RegExp(escape(head) + tail, 'gi');
}

export function redactText(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    // Very short "secrets" would shred ordinary text; real keys are longer than this.
    if (secret.length < 4) continue;
    out = out.replace(secretPattern(secret), REDACTED);
  }
  return out;
}

/** `Bearer <key>` → `Bearer ***` for a configured key; other (deliberately invalid) credentials stay visible. */
export function redactHeaders(
  headers: Record<string, string>,
  secrets: readonly string[],
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) out[name] = redactText(value, secrets);
  return out;
}
