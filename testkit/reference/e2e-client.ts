// A minimal client for the reference server's socket tests (undici, no keep-alive surprises).
import { Agent, request } from 'undici';
import { lowerCaseHeaders } from '../../core/exchange.ts';
import { rawExchange } from '../http/raw-client.ts';

export interface Reply {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export const agent = new Agent({ connections: 600, pipelining: 1 });

export async function send(
  url: string,
  init: { method?: string; key?: string | null; body?: string | Buffer; headers?: Record<string, string> } = {},
): Promise<Reply> {
  const headers: Record<string, string> = { ...init.headers };
  if (init.key) headers.authorization = `Bearer ${init.key}`;
  if (init.body !== undefined) headers['content-type'] ??= 'application/json';
  const res = await request(url, {
    method: (init.method ?? 'GET') as 'GET',
    headers,
    body: init.body,
    dispatcher: agent,
  });
  return { status: res.statusCode, headers: lowerCaseHeaders(res.headers), body: await res.body.text() };
}

/** Sends raw bytes on a fresh socket and returns everything the server wrote until it closed (or 5 s). */
export async function raw(port: number, bytes: string): Promise<string> {
  return (await rawExchange(port, Buffer.from(bytes, 'latin1'))).text;
}

/** Sleeps until `ms` past the next multiple of `seconds` on the epoch (the server shares our clock here). */
export function untilBoundary(seconds: number, ms = 50): Promise<void> {
  const len = seconds * 1000;
  const wait = len - (Date.now() % len) + ms;
  return new Promise((resolve) => setTimeout(resolve, wait));
}
