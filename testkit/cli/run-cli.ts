// Runs `node bin/petcert.js ...` as a child process, as a user would, with a time limit.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../bin/petcert.js', import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runCli(
  args: string[],
  options: { env?: Record<string, string>; cwd?: string; timeoutMs: number },
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: options.cwd ?? process.cwd(),
      env: { ...process.env, NO_COLOR: '1', ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new Error(`petcert ${args.join(' ')} did not finish within ${options.timeoutMs} ms\n${stdout}\n${stderr}`),
      );
    }, options.timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Compressed windows and small figures: every plan's minute and day quota certified in about a minute. */
export const SMALL_PLANS = {
  windows: { minuteSeconds: 1, daySeconds: 12 },
  plans: {
    free: { perMinute: 40, perDay: 400 },
    pro: { perMinute: 60, perDay: 600 },
    business: { perMinute: 100, perDay: 1000 },
  },
} as const;
