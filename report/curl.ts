// A curl command that replays a recorded request. Headers are already redacted when recorded; the
// key placeholder tells the reader where theirs goes.
import { REDACTED } from '../core/redact.ts';
import type { RecordedRequest } from './model.ts';

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

export function curlFor(request: RecordedRequest): string {
  const parts = ['curl', '-i', '-X', request.method];
  for (const [name, value] of Object.entries(request.headers)) {
    parts.push('-H', shellQuote(`${name}: ${value === `Bearer ${REDACTED}` ? 'Bearer $API_KEY' : value}`));
  }
  if (request.body !== undefined) parts.push('--data-binary', shellQuote(request.body));
  parts.push(shellQuote(request.url));
  return parts.join(' ');
}
