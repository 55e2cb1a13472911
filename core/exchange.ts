// The one shape of an HTTP exchange, shared by the Node (undici) and k6 (k6/http) transports.
// Pure: no Node, undici or k6 import, so checks and probes run unchanged in both runtimes.

export type Headers = Record<string, string>;

export interface HttpRequest {
  method: string;
  /** Absolute URL. */
  url: string;
  /** Lower-case names. */
  headers: Headers;
  body?: string;
}

export interface HttpResponse {
  status: number;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Headers;
  /** Text of the body as received (UTF-8), possibly truncated at the transport's cap. */
  body: string;
  /** Set when the body was longer than the transport's cap and was cut there. */
  truncated?: boolean;
}

export interface Exchange {
  request: HttpRequest;
  response: HttpResponse;
  /** Local wall-clock ms when the request was sent; for ordering and plots, never for rate-limit logic. */
  sentAt: number;
  durationMs: number;
  /** Local ms the request waited in the 429 hold (hold-429.ts) before it was sent, when it waited. */
  heldMs?: number;
  /** Sends this answer took, when more than one (retry.ts retryTransport): each may have reached the server. */
  tries?: number;
}

/** Sends one request. Rejects with TransportError when there is no HTTP response. */
export type Send = (request: HttpRequest) => Promise<Exchange>;

export function lowerCaseHeaders(headers: Record<string, string | string[] | undefined>): Headers {
  const out: Headers = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

export type JsonResult = { ok: true; value: unknown } | { ok: false; error: string };

export function parseJson(text: string): JsonResult {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

/** The media type of a Content-Type header, lower-cased, without parameters. */
export function mediaType(headers: Headers): string | undefined {
  const value = headers['content-type'];
  return value === undefined ? undefined : value.split(';')[0]!.trim().toLowerCase();
}

export function joinUrl(baseUrl: string, path: string): string {
  return baseUrl.replace(/\/+$/, '') + path;
}
