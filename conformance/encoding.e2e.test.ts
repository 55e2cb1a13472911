// A correct server that gzips its answers whenever the request allows it. Without Accept-Encoding
// every coding is acceptable (RFC 9110 §12.5.3), and undici does not decode: a client that does not ask
// for `identity` reads gzip bytes as the body and fails every check. petcert asks, and passes such a server.
// The "server" is the reference with a thin gzip front on another loopback port.
import http from 'node:http';
import zlib from 'node:zlib';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { listen, type RunningServer } from '../reference/index.ts';
import { runConform } from './run.ts';

const KEY = 'petcert-gzip-key-0123456789';
const plans = {
  windows: { minuteSeconds: 60, daySeconds: 86_400 },
  plans: { big: { perMinute: 10_000_000, perDay: 100_000_000 } },
};
const HOP = new Set(['content-length', 'content-encoding', 'transfer-encoding', 'connection', 'keep-alive']);

let reference: RunningServer;
let front: http.Server;
let frontUrl = '';
let gzipped = 0;

beforeAll(async () => {
  reference = await listen({ keys: { [KEY]: 'big' }, plans, log: () => undefined });
  front = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const headers = Object.fromEntries(
      Object.entries(req.headers).filter(
        (e): e is [string, string] => typeof e[1] === 'string' && !HOP.has(e[0]) && e[0] !== 'host',
      ),
    );
    const answer = await fetch(`http://127.0.0.1:${reference.port}${req.url}`, {
      method: req.method!,
      headers,
      ...(chunks.length ? { body: Buffer.concat(chunks) } : {}),
    });
    const body = Buffer.from(await answer.arrayBuffer());
    const out: Record<string, string> = {};
    answer.headers.forEach((v, k) => void (HOP.has(k) ? undefined : (out[k] = v)));
    if (/^\s*identity\s*$/i.test(req.headers['accept-encoding'] ?? '')) {
      res.writeHead(answer.status, out).end(body);
      return;
    }
    gzipped += 1;
    res
      .writeHead(answer.status, { ...out, 'content-encoding': 'gzip', vary: 'accept-encoding' })
      .end(zlib.gzipSync(body));
  });
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  frontUrl = `http://127.0.0.1:${(front.address() as { port: number }).port}/v1`;
});
afterAll(async () => {
  await new Promise((resolve) => front.close(resolve));
  await reference.close();
});

test('a server that gzips unless asked for identity passes, and is never made to gzip', async () => {
  const report = await runConform({ baseUrl: frontUrl, apiKey: KEY, budget: 300, maxRuns: 10, seed: 1 });
  expect(report.aborted).toBeUndefined();
  expect(report.checks.filter((c) => c.outcome === 'fail').map((c) => c.id)).toEqual([]);
  expect(report.requests).toBeGreaterThan(100);
  expect(gzipped).toBe(0);
});
