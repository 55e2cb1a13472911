// tinyproxy (Debian) wanting credentials (BasicAuth): without them every request gets 407, as a
// company's authenticating proxy answers. With them it forwards to its upstream proxy (squid, which
// alone resolves the staging names).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { unusedPort } from '../http/hostile.ts';
import { startDaemon, type Daemon } from './daemon.ts';
import { toolPath } from './tools.ts';

export interface Tinyproxy {
  /** Without credentials: 407. */
  url: string;
  /** The same proxy with its user and password in the URL. */
  urlWithCredentials: string;
  password: string;
  daemon: Daemon;
}

export async function startTinyproxy(root: string, upstream: string): Promise<Tinyproxy> {
  const dir = join(root, 'tinyproxy');
  mkdirSync(dir, { recursive: true });
  const port = await unusedPort();
  const password = 'tiny-proxy-pw-5f2a';
  const user = process.getuid?.() === 0 ? 'User root\nGroup root\n' : '';
  writeFileSync(
    join(dir, 'tinyproxy.conf'),
    `${user}Port ${port}\nListen 127.0.0.1\nTimeout 30\nLogLevel Info\nMaxClients 50\nBasicAuth petcert ${password}\nUpstream http ${new URL(upstream).host}\n`,
  );
  const daemon = await startDaemon(
    'tinyproxy',
    toolPath('tinyproxy'),
    ['-d', '-c', join(dir, 'tinyproxy.conf')],
    [port],
  );
  return {
    url: `http://127.0.0.1:${port}`,
    urlWithCredentials: `http://petcert:${password}@127.0.0.1:${port}`,
    password,
    daemon,
  };
}
