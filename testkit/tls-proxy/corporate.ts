// A company's network around the reference server, for one test file: nginx terminating TLS with the
// test's private CA (one port wanting a client certificate), a TLS front refusing the handshake without
// one, squid as the forward proxy (the only resolver of the staging names; one port refusing with 403),
// and tinyproxy wanting credentials (407). Everything listens on 127.0.0.1.
import { listen, type ListenOptions, type RunningServer } from '../../reference/index.ts';
import { startHandshakeFront, type HandshakeFront } from './handshake-front.ts';
import { startNginx, type Nginx } from './nginx.ts';
import { makePki, type Pki } from './pki.ts';
import { startSquid, type Squid } from './squid.ts';
import { startTinyproxy, type Tinyproxy } from './tinyproxy.ts';

/** Resolved by squid only; the server certificate names it. */
export const STAGING_HOST = 'staging.petcert.test';
/** Resolved by squid only; the server certificate does not name it. */
export const MISMATCH_HOST = 'mismatch.petcert.test';

export interface Corporate {
  pki: Pki;
  server: RunningServer;
  nginx: Nginx;
  squid: Squid;
  tinyproxy: Tinyproxy;
  front: HandshakeFront;
  /** https://staging.petcert.test:PORT/v1 through nginx: only through squid. */
  tlsBase: string;
  /** The same, on the port that wants a client certificate. */
  mtlsBase: string;
  /** The TLS front that refuses the handshake without a client certificate. */
  frontBase: string;
  close(): Promise<void>;
}

export async function startCorporate(reference: Pick<ListenOptions, 'plans' | 'keys'>): Promise<Corporate> {
  const pki = makePki([STAGING_HOST]);
  const server = await listen({ host: '127.0.0.1', port: 0, ...reference });
  const stops: Array<() => Promise<void>> = [() => server.close()];
  try {
    const nginx = await startNginx(pki, server.port);
    stops.push(() => nginx.daemon.stop());
    const squid = await startSquid(pki.dir, [STAGING_HOST, MISMATCH_HOST]);
    stops.push(() => squid.daemon.stop());
    const tinyproxy = await startTinyproxy(pki.dir, squid.url);
    stops.push(() => tinyproxy.daemon.stop());
    const front = await startHandshakeFront(pki, server.port);
    stops.push(() => front.close());
    const base = (port: number) => `https://${STAGING_HOST}:${port}/v1`;
    return {
      pki,
      server,
      nginx,
      squid,
      tinyproxy,
      front,
      tlsBase: base(nginx.tlsPort),
      mtlsBase: base(nginx.mtlsPort),
      frontBase: base(front.port),
      close: async () => void (await Promise.all(stops.map((s) => s()))),
    };
  } catch (error) {
    await Promise.all(stops.map((s) => s()));
    throw error;
  }
}
