// Raw bytes over a fresh loopback socket, for attacks no HTTP client would send (bad framing, invalid
// UTF-8 in the request line, oversize headers, slow senders). Returns every status line the server wrote.
import { connect } from 'node:net';

export interface RawReply {
  /** Status codes of every response in what the server wrote (pipelined garbage can yield several). */
  statuses: number[];
  text: string;
  /** The server closed the connection (rather than our timeout ending the wait). */
  closedByServer: boolean;
  ms: number;
}

export interface RawOptions {
  timeoutMs?: number;
  /** Writes the bytes in pieces of this size, `intervalMs` apart (a slow client). */
  trickle?: { chunk: number; intervalMs: number };
}

export function rawExchange(port: number, bytes: Buffer, options: RawOptions = {}): Promise<RawReply> {
  const started = performance.now();
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let trickler: NodeJS.Timeout | undefined;
    let closedByServer = false;
    const finish = (): void => {
      clearTimeout(timer);
      clearInterval(trickler);
      socket.destroy();
      const text = Buffer.concat(chunks).toString('latin1');
      const statuses = [...text.matchAll(/(?:^|\r\n)HTTP\/1\.[01] (\d{3}) /g)].map((m) => Number(m[1]));
      resolve({ statuses, text, closedByServer, ms: performance.now() - started });
    };
    const timer = setTimeout(finish, options.timeoutMs ?? 5_000);
    socket.on('data', (d: Buffer) => chunks.push(d));
    socket.on('end', () => (closedByServer = true));
    socket.on('close', finish);
    socket.on('error', () => {
      closedByServer = true;
      finish();
    });
    const trickle = options.trickle;
    if (!trickle) {
      socket.write(bytes);
      return;
    }
    let sent = 0;
    trickler = setInterval(() => {
      if (socket.destroyed || sent >= bytes.length) return clearInterval(trickler);
      socket.write(bytes.subarray(sent, sent + trickle.chunk));
      sent += trickle.chunk;
    }, trickle.intervalMs);
  });
}

/** Strings are taken byte for byte (latin1), so "\xff" is the byte 0xff: invalid UTF-8 on purpose. */
const bytes = (v: string | Buffer): Buffer => (typeof v === 'string' ? Buffer.from(v, 'latin1') : v);

/** Chunked transfer coding of a body, in pieces of up to `size` bytes. */
function chunked(body: Buffer, size = 1_000): Buffer {
  const parts: Buffer[] = [];
  for (let at = 0; at < body.length; at += size) {
    const piece = body.subarray(at, at + size);
    parts.push(bytes(`${piece.length.toString(16)}\r\n`), piece, bytes('\r\n'));
  }
  parts.push(bytes('0\r\n\r\n'));
  return Buffer.concat(parts);
}

/** A request as bytes: request line, headers (Content-Length, or chunked coding, for a body), blank line, body. */
export function rawRequest(
  method: string,
  target: string | Buffer,
  headers: Array<[string, string | Buffer]>,
  body?: Buffer,
  asChunks = false,
): Buffer {
  const parts: Buffer[] = [
    bytes(`${method} `),
    bytes(target),
    bytes(' HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n'),
  ];
  for (const [name, value] of headers) parts.push(bytes(`${name}: `), bytes(value), bytes('\r\n'));
  if (body !== undefined)
    parts.push(bytes(asChunks ? 'Transfer-Encoding: chunked\r\n' : `Content-Length: ${body.length}\r\n`));
  parts.push(bytes('\r\n'));
  if (body !== undefined) parts.push(asChunks ? chunked(body) : body);
  return Buffer.concat(parts);
}
