// The Animal Store as a team runs it behind a load balancer: two replicas (listeners on their own ports,
// each with its own Redis connection and its own pet store) share one rate-limit store, Debian's
// redis-server, through rate-limiter-flexible 11's RateLimiterRedis on ioredis; Debian's nginx proxies
// round-robin to both and writes its own Date (nginx never passes an upstream's Date on).
//   - windows: a key's window opens at its first request after the last one ended (the Lua script's
//     SET NX EX + INCRBY, the TTL read with PTTL), counted in Redis, so either replica sees the same count;
//     refused requests are counted too, in the current window;
//   - headers as rate-limiter-flexible's README shows them, except X-RateLimit-Reset ROUNDED DOWN:
//     Math.floor((Date.now() + msBeforeNext) / 1000), as services on these libraries write it;
//     Retry-After = msBeforeNext / 1000 (a decimal); the last quota that ran writes them (minute, then day).
// Only quota probes are meaningful here: each replica keeps its own pets, so a pet made through one is
// unknown to the other.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { RateLimiterRedis } from 'rate-limiter-flexible';
import { unusedPort } from '../http/hostile.ts';
import { startDaemon } from '../tls-proxy/daemon.ts';
import { nginxConf } from '../tls-proxy/nginx.ts';
import { BASE_PATH } from '../../reference/routes.ts';
import { rlfLimiters, type RlfOptions } from './rate-limiter-flexible.ts';
import { startRedis } from './redis.ts';
import { serveApp, storeApp, type RunningService } from './store-app.ts';

const NGINX = '/usr/sbin/nginx';
const REPLICAS = 2;

function nginxConfig(dir: string, port: number, upstreams: number[]): string {
  return nginxConf(
    dir,
    `  log_format timed '$msec $upstream_addr $status $upstream_http_x_ratelimit_remaining '
                   '$upstream_http_x_ratelimit_reset "$sent_http_date" "$request"';
  access_log ${dir}/access.log timed;
  upstream replicas {
${upstreams.map((p) => `    server 127.0.0.1:${p};`).join('\n')}
    keepalive 32;
  }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://replicas;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_buffering off;
    }
  }`,
  );
}

const portOf = (baseUrl: string): number => Number(new URL(baseUrl).port);

export async function rlfRedisService(options: RlfOptions): Promise<RunningService> {
  if (!existsSync(NGINX))
    throw new Error(`nginx is not installed at ${NGINX}: apt-get install -y nginx (.ci/run does)`);
  const stops: Array<() => Promise<void>> = [];
  const stopAll = async () => void (await Promise.all(stops.splice(0).map((stop) => stop())));
  try {
    const redis = await startRedis();
    stops.push(() => redis.stop());
    const replicas: RunningService[] = [];
    for (let i = 0; i < REPLICAS; i++) {
      // Each replica its own client, as separate processes would have.
      const client = new Redis({ host: '127.0.0.1', port: redis.port, maxRetriesPerRequest: 2 });
      stops.push(async () => void client.disconnect());
      const make = (opts: { points: number; duration: number; keyPrefix: string }) =>
        new RateLimiterRedis({ ...opts, storeClient: client });
      const replica = await serveApp(storeApp(options, rlfLimiters(options, make, 'floor')), options.keys);
      stops.push(() => replica.close());
      replicas.push(replica);
    }
    const dir = mkdtempSync(join(tmpdir(), 'petcert-round-robin-'));
    stops.push(async () => rmSync(dir, { recursive: true, force: true }));
    mkdirSync(join(dir, 'tmp'), { recursive: true });
    const port = await unusedPort();
    writeFileSync(
      join(dir, 'nginx.conf'),
      nginxConfig(
        dir,
        port,
        replicas.map((r) => portOf(r.baseUrl)),
      ),
    );
    const nginx = await startDaemon(
      'nginx',
      NGINX,
      ['-p', dir, '-c', join(dir, 'nginx.conf'), '-g', 'daemon off;'],
      [port],
    );
    // nginx first: no request reaches a replica that is gone.
    stops.unshift(() => nginx.stop());
    return {
      baseUrl: `http://127.0.0.1:${port}${BASE_PATH}`,
      keys: { ...options.keys },
      close: async () => {
        await stops.shift()!();
        await stopAll();
      },
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}
