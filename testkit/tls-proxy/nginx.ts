// nginx (Debian) terminating TLS in front of a loopback HTTP server, with the test's PKI: one port
// that any client may use, one that wants a client certificate signed by the CA (ssl_verify_client
// on), as a company's gateway in front of staging does.
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { unusedPort } from '../http/hostile.ts';
import { startDaemon, type Daemon } from './daemon.ts';
import type { Pki } from './pki.ts';
import { toolPath } from './tools.ts';

export interface Nginx {
  /** TLS, no client certificate asked. */
  tlsPort: number;
  /** TLS, a client certificate signed by the test's CA required. */
  mtlsPort: number;
  daemon: Daemon;
}

function server(port: number, pki: Pki, clientCert: boolean): string {
  return `
  server {
    listen 127.0.0.1:${port} ssl;
    ssl_certificate ${pki.serverCert};
    ssl_certificate_key ${pki.serverKey};
    ${clientCert ? `ssl_client_certificate ${pki.caCert};\n    ssl_verify_client on;` : ''}
    location / {
      proxy_pass http://animal_store;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_buffering off;
    }
  }`;
}

/**
 * An nginx.conf whose every file lives in `dir`, with `http` (the access log first) inside its http block.
 * Running as root (CI), the workers stay root so they can use the test's private folder.
 */
export function nginxConf(dir: string, http: string): string {
  return `${process.getuid?.() === 0 ? 'user root;' : ''}
worker_processes 1;
error_log ${dir}/error.log warn;
pid ${dir}/nginx.pid;
events { worker_connections 1024; }
http {
  client_body_temp_path ${dir}/tmp/body;
  proxy_temp_path ${dir}/tmp/proxy;
  fastcgi_temp_path ${dir}/tmp/fastcgi;
  uwsgi_temp_path ${dir}/tmp/uwsgi;
  scgi_temp_path ${dir}/tmp/scgi;
${http}
}
`;
}

function config(dir: string, ports: { tls: number; mtls: number }, upstream: number, pki: Pki): string {
  return nginxConf(
    dir,
    `  access_log ${dir}/access.log;
  upstream animal_store { server 127.0.0.1:${upstream}; keepalive 64; }
${server(ports.tls, pki, false)}
${server(ports.mtls, pki, true)}`,
  );
}

/** nginx in front of http://127.0.0.1:`upstream`. */
export async function startNginx(pki: Pki, upstream: number): Promise<Nginx> {
  const dir = join(pki.dir, 'nginx');
  mkdirSync(join(dir, 'tmp'), { recursive: true });
  chmodSync(join(dir, 'tmp'), 0o777);
  const tlsPort = await unusedPort();
  const mtlsPort = await unusedPort([tlsPort]);
  writeFileSync(join(dir, 'nginx.conf'), config(dir, { tls: tlsPort, mtls: mtlsPort }, upstream, pki));
  const daemon = await startDaemon(
    'nginx',
    toolPath('nginx'),
    ['-p', dir, '-c', join(dir, 'nginx.conf'), '-g', 'daemon off;'],
    [tlsPort, mtlsPort],
  );
  return { tlsPort, mtlsPort, daemon };
}
