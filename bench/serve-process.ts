// `petcert serve` in its own process for a bench (so the server does not share the bench's event loop):
// resolved once it listens and has written its key pool file; stop() ends it.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

export interface ServeProcess {
  baseUrl: string;
  stop(): void;
}

/** `petcert serve --port 0 ARGS…` (ARGS must write a --key-pool-file: that line says it is ready). */
export function startServe(args: readonly string[], timeoutMs: number): Promise<ServeProcess> {
  const child = spawn(process.execPath, [join(root, 'bin/petcert.js'), 'serve', '--port', '0', ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${out}`)), timeoutMs);
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const url = /listening on (\S+)/.exec(out)?.[1];
      if (url && /written to/.test(out)) {
        clearTimeout(timer);
        resolve({ baseUrl: url, stop: () => child.kill('SIGTERM') });
      }
    });
  });
}
