// Debian's redis-server, started by a test on a free loopback port with no persistence (--save '',
// --appendonly no) in its own temporary folder, stopped by its own pid. In CI (CI=true) a missing
// redis-server or nginx fails the tests that need them, never skips them (.ci/run installs both);
// elsewhere they are skipped, and the title says why, as the corporate-network tests do.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unusedPort } from '../http/hostile.ts';
import { IN_CI } from '../k6/k6.ts';
import { startDaemon, type Daemon } from '../tls-proxy/daemon.ts';

export const REDIS_SERVER = '/usr/bin/redis-server';
const NGINX = '/usr/sbin/nginx';

const missing = [REDIS_SERVER, NGINX].filter((tool) => !existsSync(tool));

/** Why the shared-store tests are skipped (outside CI, a tool missing), or undefined: they run. */
export const REDIS_SKIP: string | undefined =
  missing.length > 0 && !IN_CI
    ? `skipped: ${missing.join(', ')} not installed — apt-get install -y redis-server nginx (.ci/run does)`
    : undefined;

export interface RedisServer {
  port: number;
  daemon: Daemon;
  stop(): Promise<void>;
}

export async function startRedis(): Promise<RedisServer> {
  if (!existsSync(REDIS_SERVER))
    throw new Error(`redis-server is not installed at ${REDIS_SERVER}: apt-get install -y redis-server (.ci/run does)`);
  const dir = mkdtempSync(join(tmpdir(), 'petcert-redis-'));
  const port = await unusedPort();
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir];
  try {
    const daemon = await startDaemon('redis-server', REDIS_SERVER, args, [port]);
    return {
      port,
      daemon,
      stop: async () => {
        await daemon.stop();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}
