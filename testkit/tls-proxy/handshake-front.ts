// A TLS front that refuses the handshake itself when no client certificate the CA signed is shown (as
// Envoy and Istio do), and otherwise passes the bytes to a loopback HTTP server.
import { readFileSync } from 'node:fs';
import { connect, type AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:tls';
import type { Pki } from './pki.ts';

export interface HandshakeFront {
  port: number;
  close(): Promise<void>;
}

export async function startHandshakeFront(pki: Pki, upstream: number): Promise<HandshakeFront> {
  const sockets = new Set<{ destroy(): void }>();
  const server: Server = createServer(
    {
      cert: readFileSync(pki.serverCert),
      key: readFileSync(pki.serverKey),
      ca: readFileSync(pki.caCert),
      requestCert: true,
      rejectUnauthorized: true,
    },
    (socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      const back = connect(upstream, '127.0.0.1');
      socket.pipe(back).pipe(socket);
      back.on('error', () => socket.destroy());
      socket.on('error', () => back.destroy());
    },
  );
  server.on('tlsClientError', () => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
