// The k6 seam: the probe core's `Send` over k6/http's asyncRequest. k6 returns header names as the
// server spelled them (canonicalised), so they are lower-cased here as the core expects.
import http from 'k6/http';
import { setTimeout } from 'k6/timers';
import type { Clock } from '../../../core/clock.ts';
import { TransportError } from '../../../core/errors.ts';
import { DEFAULT_REQUEST_TIMEOUT_MS } from '../../../core/request-timeout.ts';
import { lowerCaseHeaders, type Send } from '../../../core/exchange.ts';

export function k6Send(timeout = `${DEFAULT_REQUEST_TIMEOUT_MS}ms`): Send {
  return async (request) => {
    const sentAt = Date.now();
    const res = await http.asyncRequest(request.method, request.url, request.body ?? null, {
      headers: request.headers,
      redirects: 0,
      timeout,
      responseType: 'text',
      tags: { name: `${request.method} ${request.url.replace(/\?.*/, '')}` },
    });
    if (res.status === 0)
      throw new TransportError('OTHER', `${request.method} ${request.url}: ${res.error || 'no response'}`);
    return {
      request,
      response: {
        status: res.status,
        headers: lowerCaseHeaders(res.headers),
        body: typeof res.body === 'string' ? res.body : '',
      },
      sentAt,
      durationMs: res.timings.duration,
    };
  };
}

export const k6Clock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms))),
};
