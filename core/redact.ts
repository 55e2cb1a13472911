// Secrets (API keys) must never reach an artifact. Two layers: requests are redacted where they are
// recorded, and every artifact's final text is scrubbed again before it is written.

export const REDACTED = '***';

export function redactText(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    // Very short "secrets" would shred ordinary text; real keys are longer than this.
    if (secret.length < 4) continue;
    out = out.split(secret).join(REDACTED);
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
