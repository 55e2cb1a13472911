// A stranger's client for `petcert serve`: it knows only the CLI's printed output, the plans-file
// format and HTTP. It imports nothing of reference/ on purpose (the server is probed as a client
// written elsewhere would), so the black-box tests cannot pass by sharing the server's code.
import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import { Agent, request } from 'undici';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface PrintedKey {
  key: string;
  plan: string;
  perMinute: number;
  perDay: number;
}
export interface Served {
  baseUrl: string;
  origin: string;
  minuteSeconds: number;
  daySeconds: number;
  keys: PrintedKey[];
  stop(): Promise<number | null>;
}

const URL_LINE = /listening on (http:\/\/\S+\/v1)\s*$/m;
const WINDOWS_LINE = /windows: minute (\d+) s, day (\d+) s/;
const KEY_LINE = /^\s+(\S+)\s+plan=(\S+)\s+(\d+)\/minute\s+(\d+)\/day\s*$/gm;

export function parseServeOutput(text: string): Omit<Served, 'stop'> | undefined {
  const url = URL_LINE.exec(text);
  const windows = WINDOWS_LINE.exec(text);
  if (!url || !windows || !text.includes('API keys')) return undefined;
  const keys = [...text.matchAll(KEY_LINE)].map((m) => ({
    key: m[1]!,
    plan: m[2]!,
    perMinute: Number(m[3]),
    perDay: Number(m[4]),
  }));
  return {
    baseUrl: url[1]!,
    origin: new URL(url[1]!).origin,
    keys,
    minuteSeconds: Number(windows[1]),
    daySeconds: Number(windows[2]),
  };
}

/** Starts `node bin/petcert.js serve ARGS`; resolves once the key list has been printed. */
export function startServe(args: string[], expectedKeys: number, timeoutMs = 20_000): Promise<Served> {
  const child = spawn(process.execPath, ['bin/petcert.js', 'serve', ...args], { cwd: ROOT, stdio: 'pipe' });
  let out = '';
  let err = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail(`no startup output within ${timeoutMs} ms`), timeoutMs);
    function fail(why: string): void {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`${why}\nstdout: ${out}\nstderr: ${err}`));
    }
    child.stderr.on('data', (d: Buffer) => {
      err += d.toString();
    });
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const parsed = parseServeOutput(out);
      if (parsed && parsed.keys.length >= expectedKeys) {
        clearTimeout(timer);
        resolve({ ...parsed, stop: () => stopChild(child) });
      }
    });
    child.on('exit', (code) => fail(`serve exited early with ${code}`));
  });
}

function stopChild(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => {
    child.removeAllListeners('exit');
    child.on('exit', (code) => resolve(code));
    child.kill('SIGTERM');
  });
}

/** Runs the CLI to completion (for usage errors); kills it after timeoutMs. */
export function runCli(
  args: string[],
  timeoutMs = 15_000,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['bin/petcert.js', ...args], { cwd: ROOT, stdio: 'pipe' });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => {
    stdout += d.toString();
  });
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  return new Promise((resolve) =>
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    }),
  );
}

export interface Res {
  status: number;
  headers: Record<string, string>;
  text: string;
  json: unknown;
  receivedAt: number;
}
export interface Call {
  key?: string;
  auth?: string;
  headers?: Record<string, string> | string[];
  body?: string | Buffer;
}

// Many connections: the concurrency probe sends 500 requests at once.
export const agent = new Agent({ connections: 600, keepAliveTimeout: 2_000 });

export async function call(origin: string, method: string, path: string, opts: Call = {}): Promise<Res> {
  const headers = Array.isArray(opts.headers) ? [...opts.headers] : Object.entries(opts.headers ?? {}).flat();
  const auth = opts.auth ?? (opts.key === undefined ? undefined : `Bearer ${opts.key}`);
  if (auth !== undefined) headers.push('authorization', auth);
  if (opts.body !== undefined && !headers.some((h, i) => i % 2 === 0 && h.toLowerCase() === 'content-type')) {
    headers.push('content-type', 'application/json');
  }
  const res = await request(`${origin}${path}`, { method, headers, body: opts.body, dispatcher: agent });
  const text = await res.body.text();
  const flat: Record<string, string> = {};
  for (const [k, v] of Object.entries(res.headers)) flat[k] = Array.isArray(v) ? v.join(', ') : String(v);
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.statusCode, headers: flat, text, json, receivedAt: Date.now() };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Writes raw bytes on a fresh socket; resolves with all the server wrote before closing (or 3 s). */
export function rawExchange(origin: string, text: string): Promise<string> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    let got = '';
    const timer = setTimeout(() => socket.destroy(), 3_000);
    socket.on('data', (d: Buffer) => {
      got += d.toString('latin1');
    });
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(got);
    });
    socket.on('error', () => undefined);
    socket.write(text);
  });
}
