// squid (Debian) as the company's forward proxy: the only one that resolves the staging host name (its
// hosts_file, as a corporate DNS would), one port that forwards, one that refuses every request (403),
// its access log read by the tests to prove a request went through it.
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { unusedPort } from '../http/hostile.ts';
import { startDaemon, type Daemon } from './daemon.ts';
import { toolPath } from './tools.ts';

export interface Squid {
  /** Forwards (CONNECT and plain HTTP) to any port, resolving `hosts` to 127.0.0.1. */
  url: string;
  /** Refuses every request with 403. */
  denyingUrl: string;
  /** The access log's lines so far (one per request or tunnel, written when it ends). */
  accessLog(): string[];
  daemon: Daemon;
}

function config(dir: string, ports: { open: number; deny: number }): string {
  return `
http_port 127.0.0.1:${ports.open} name=open
http_port 127.0.0.1:${ports.deny} name=deny
hosts_file ${dir}/hosts
acl denying myportname deny
http_access deny denying
http_access allow localhost
http_access deny all
cache deny all
access_log stdio:${dir}/access.log
cache_log ${dir}/cache.log
pid_filename none
coredump_dir ${dir}
shutdown_lifetime 0 seconds
dns_timeout 2 seconds
`;
}

/** squid resolving `hosts` to 127.0.0.1 (no other resolver knows them). */
export async function startSquid(root: string, hosts: readonly string[]): Promise<Squid> {
  const dir = join(root, 'squid');
  mkdirSync(dir, { recursive: true });
  // squid started as root works as the proxy user: its log must be writable by it.
  chmodSync(root, 0o755);
  chmodSync(dir, 0o777);
  writeFileSync(join(dir, 'hosts'), `127.0.0.1 ${hosts.join(' ')}\n`, { mode: 0o644 });
  writeFileSync(join(dir, 'access.log'), '', { mode: 0o666 });
  chmodSync(join(dir, 'access.log'), 0o666);
  const open = await unusedPort();
  const deny = await unusedPort([open]);
  writeFileSync(join(dir, 'squid.conf'), config(dir, { open, deny }));
  const daemon = await startDaemon(
    'squid',
    toolPath('squid'),
    ['-N', '-f', join(dir, 'squid.conf')],
    [open, deny],
    30_000,
  );
  return {
    url: `http://127.0.0.1:${open}`,
    denyingUrl: `http://127.0.0.1:${deny}`,
    accessLog: () => readFileSync(join(dir, 'access.log'), 'utf8').split('\n').filter(Boolean),
    daemon,
  };
}
