// Everything in a report that came from the target (bodies, headers, messages quoting them, probe ids)
// is hostile until escaped: a server must not be able to inject markup or script into the certificate.
export function escapeHtml(value: unknown): string {
  const text = typeof value === 'string' ? value : String(value);
  return text.replace(/[&<>"'`]/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A long body stays readable: the first `max` characters, and how much was left out. */
export function clip(text: string, max = 4000): string {
  return text.length <= max ? text : `${text.slice(0, max)}\n… (${text.length - max} more characters in report.json)`;
}

export function prettyJson(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}
