// A minimal client for the reference server's socket tests (undici, no keep-alive surprises).
import { Agent, request } from 'undici';

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
  const res = await request(url, { method: (init.method ?? 'GET') as 'GET', headers, body: init.body, dispatcher: agent });
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(res.headers)) if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  return { status: res.statusCode, headers: out, body: await res.body.text() };
}

/** Sends raw bytes on a fresh socket and returns everything the server wrote until it closed (or 5 s). */
export async function raw(port: number, bytes: string): Promise<string> {
  const { connect } = await import('node:net');
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let got = '';
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(got);
    };
    const timer = setTimeout(finish, 5000);
    socket.on('data', (d) => (got += d.toString('latin1')));
    socket.on('close', finish);
    socket.on('error', finish);
    socket.write(bytes);
  });
}

/** Sleeps until `ms` past the next multiple of `seconds` on the epoch (the server shares our clock here). */
export function untilBoundary(seconds: number, ms = 50): Promise<void> {
  const len = seconds * 1000;
  const wait = len - (Date.now() % len) + ms;
  return new Promise((resolve) => setTimeout(resolve, wait));
}
