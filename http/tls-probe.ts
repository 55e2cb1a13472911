// Why a TLS server closed the connection. Under TLS 1.3 a server that wants a client certificate
// refuses it after the client's side of the handshake is done (the alert "certificate required"), and
// undici reports only "other side closed". One bare connection, through the same proxy (undici's own
// CONNECT), reads the alert itself: the cause and its fix are then named, not a reset blamed on the service.
import { connect as tlsConnect, type TLSSocket } from 'node:tls';
import type { Duplex } from 'node:stream';
import type { Network } from './network.ts';
import { proxyFor } from './proxy.ts';
import { connectionTls } from './tls.ts';

/** The alert's code (e.g. ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED), or undefined when none came. */
export async function tlsAlertOf(url: string, network: Network, timeoutMs = 1_000): Promise<string | undefined> {
  const target = new URL(url);
  if (target.protocol !== 'https:') return undefined;
  const port = Number(target.port) || 443;
  let tunnel: Duplex | undefined;
  try {
    tunnel = await tunnelTo(target.hostname, port, network, timeoutMs);
    const socket = tlsConnect({
      ...connectionTls(network.tls),
      servername: target.hostname,
      ...(tunnel ? { socket: tunnel } : { host: target.hostname, port }),
    });
    return await alertOn(socket, target.host, timeoutMs);
  } catch {
    return undefined;
  } finally {
    tunnel?.destroy();
  }
}

/** A tunnel through the proxy that serves `host` (undici's Client.connect), or undefined when direct. */
async function tunnelTo(host: string, port: number, network: Network, timeoutMs: number): Promise<Duplex | undefined> {
  const proxy = proxyFor(`https://${host}:${port}`, network.proxy);
  if (!proxy) return undefined;
  const { Client } = await import('undici');
  const client = new Client(proxy, { connect: { timeout: timeoutMs } });
  const { socket, statusCode } = await client.connect({
    path: `${host}:${port}`,
    signal: AbortSignal.timeout(timeoutMs),
  });
  if (statusCode !== 200) throw new Error(`proxy answered ${statusCode}`);
  return socket;
}

/** Sends one request on a fresh TLS connection and returns the TLS error that ends it, if any. */
function alertOn(socket: TLSSocket, host: string, timeoutMs: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    const done = (code: string | undefined) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(code);
    };
    const timer = setTimeout(() => done(undefined), timeoutMs);
    socket.once('secureConnect', () => socket.write(`GET / HTTP/1.1\r\nhost: ${host}\r\nconnection: close\r\n\r\n`));
    socket.once('error', (e: Error & { code?: string }) => done(e.code));
    socket.once('data', () => done(undefined));
    socket.once('close', () => done(undefined));
  });
}
