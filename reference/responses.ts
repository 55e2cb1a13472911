// Response builders: every error body is the §2.5 Error shape with `status` equal to the HTTP status.
import type { AppResponse } from './types.ts';

/** One table of the error codes the reference server sends (§7 leaves the set of codes open). */
export const ERROR_CODES = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  408: 'REQUEST_TIMEOUT',
  413: 'PAYLOAD_TOO_LARGE',
  431: 'HEADERS_TOO_LARGE',
  429: 'RATE_LIMITED',
  500: 'INTERNAL_ERROR',
} as const;

export type ErrorStatus = keyof typeof ERROR_CODES;

export const JSON_TYPE = 'application/json';

export function json(status: number, body: string, headers: Record<string, string> = {}): AppResponse {
  return { status, headers: { 'content-type': JSON_TYPE, ...headers }, body };
}

export function errorResponse(
  status: ErrorStatus,
  message: string,
  contentType: string = JSON_TYPE,
  headers: Record<string, string> = {},
): AppResponse {
  const body = JSON.stringify({ code: ERROR_CODES[status], message, status });
  return { status, headers: { 'content-type': contentType, ...headers }, body };
}

/** RFC 9110 §5.6.7 IMF-fixdate, cached per second (toUTCString costs more than the rest of a GET). */
export function createDateHeader(): (nowMs: number) => string {
  let second = NaN;
  let text = '';
  return (nowMs) => {
    const s = Math.floor(nowMs / 1000);
    if (s !== second) {
      second = s;
      text = new Date(s * 1000).toUTCString();
    }
    return text;
  };
}
