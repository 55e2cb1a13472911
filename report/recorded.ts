// An exchange as a Failure records it: request and response with every secret redacted (URL, headers
// and bodies alike: a server may echo the key back), the response body clipped, and a curl repro.
import type { Exchange } from '../core/exchange.ts';
import { redactHeaders, redactText } from '../core/redact.ts';
import { curlFor } from './curl.ts';
import type { Failure } from './model.ts';

export function recordedExchange(
  ex: Exchange | undefined,
  secrets: readonly string[],
  maxBodyChars: number,
): Pick<Failure, 'request' | 'response' | 'repro'> {
  if (!ex) return { request: null, response: null, repro: '' };
  const request = {
    method: ex.request.method,
    url: redactText(ex.request.url, secrets),
    headers: redactHeaders(ex.request.headers, secrets),
    ...(ex.request.body !== undefined ? { body: redactText(ex.request.body, secrets) } : {}),
  };
  const response = {
    status: ex.response.status,
    headers: redactHeaders(ex.response.headers, secrets),
    body: redactText(ex.response.body.slice(0, maxBodyChars), secrets),
  };
  return { request, response, repro: curlFor(request) };
}
