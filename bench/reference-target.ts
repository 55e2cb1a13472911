// A benchmark target in its own process: `bare` (node:http answering constant JSON) or `reference`
// (the full server, rate limiting active, on a key with a huge plan from a plans file). Sends its port.
import { createServer } from 'node:http';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadPlansFile } from '../spec/plans-file.ts';
import { listen } from '../reference/server.ts';

export const BENCH_KEY = 'bench-key';
export const SEED_PETS = 20;
const pet = (id: number) => ({ id, name: `pet ${id}`, categoryId: 1, status: 'available' });
const LIST = JSON.stringify(Array.from({ length: SEED_PETS }, (_, i) => pet(i + 1)));
const ONE = JSON.stringify(pet(1));

async function bare(): Promise<number> {
  const server = createServer((req, res) => {
    const body = req.method === 'POST' ? ONE : LIST;
    req.resume();
    req.on('end', () => {
      res.writeHead(req.method === 'POST' ? 201 : 200, {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
      });
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as { port: number }).port;
}

async function reference(): Promise<number> {
  const file = join(mkdtempSync(join(tmpdir(), 'petcert-bench-')), 'plans.json');
  writeFileSync(file, JSON.stringify({ plans: { bench: { perMinute: 1_000_000_000, perDay: 1_000_000_000_000 } } }));
  const server = await listen({ plans: loadPlansFile(file), keys: { [BENCH_KEY]: 'bench' } });
  for (let i = 1; i <= SEED_PETS; i++) {
    await fetch(`${server.baseUrl}/pets`, {
      method: 'POST',
      headers: { authorization: `Bearer ${BENCH_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: `pet ${i}`, categoryId: 1, status: 'available' }),
    });
  }
  return server.port;
}

if (process.send) {
  process.on('SIGINT', () => process.exit(0)); // a normal exit, so --cpu-prof can write its profile
  const port = process.argv[2] === 'bare' ? await bare() : await reference();
  process.send({ port });
  // CPU time the target spent, so the bench can report server µs per request next to throughput.
  process.on('message', () => process.send!({ cpu: process.cpuUsage() }));
}
