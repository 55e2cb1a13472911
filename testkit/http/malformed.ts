// fast-check arbitraries of hostile requests against an Animal Store server: well framed on the wire
// (so each gets an answer at once) but wrong in every other way a client can be wrong.
import fc from 'fast-check';
import { rawRequest } from './raw-client.ts';

export interface Attack {
  kind: string;
  bytes: Buffer;
}

const text = (s: string): Buffer => Buffer.from(s, 'utf8');
const nest = (open: string, close: string, n: number, inner = '1'): string => open.repeat(n) + inner + close.repeat(n);
/** An int64 the JSON.parse double cannot hold exactly: forces the server's exact (lossless) re-read. */
const UNSAFE = '9007199254740993';

const hugeNumber = fc.constantFrom(
  '1e400',
  '-1e400',
  '9223372036854775807',
  '9223372036854775808',
  '-9223372036854775809',
  '1.0',
  '1e2',
  '1E+2',
  '0.1e1',
  '-0',
  '123456789012345678901234567890',
  '1' + '0'.repeat(5_000),
  '1e-7',
  '1e99999999999',
  '0.' + '0'.repeat(3_000) + '1',
  UNSAFE,
);

const protoBody = fc.constantFrom(
  '{"__proto__":{"name":"x","categoryId":1,"polluted":true},"name":"p","categoryId":1}',
  '{"name":"p","categoryId":1,"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}},"name":"p","categoryId":1}',
  '{"name":{"__proto__":null},"categoryId":1}',
  '{"name":"p","categoryId":1,"status":"__proto__"}',
  '{"name":"toString","categoryId":1,"status":"constructor"}',
  `{"__proto__":{"categoryId":${UNSAFE}},"name":"p","categoryId":${UNSAFE}}`,
  '{"name":"p","name":"q","categoryId":1,"categoryId":2}',
  `{"name":"p","categoryId":${UNSAFE},"categoryId":1}`,
);

const deepBody = fc
  .tuple(fc.integer({ min: 1, max: 30_000 }), fc.constantFrom('array', 'object', 'in-pet'))
  .map(([n, shape]) =>
    shape === 'array'
      ? nest('[', ']', n)
      : shape === 'object'
        ? nest('{"a":', '}', n)
        : `{"name":"p","categoryId":${UNSAFE},"x":${nest('[', ']', n)}}`,
  );

const invalidUtf8 = fc
  .tuple(fc.uint8Array({ minLength: 1, maxLength: 8 }), fc.constantFrom('name', 'status', 'key'))
  .map(([junk, where]) => {
    const bad = Buffer.from([0xff, 0xfe, 0xc0, 0x80, 0xed, 0xa0, 0x80, ...junk]);
    return Buffer.concat([
      text(`{"${where === 'key' ? '' : where}`),
      where === 'key' ? bad : text('":"'),
      where === 'key' ? text('":1') : bad,
      text(where === 'key' ? ',"name":"p","categoryId":1}' : '","categoryId":1}'),
    ]);
  });

const body: fc.Arbitrary<[string, Buffer]> = fc.oneof(
  fc.string({ maxLength: 80 }).map((s) => ['invalid-json', text(s)] as [string, Buffer]),
  fc.json({ maxDepth: 4 }).map((s) => ['json', text(s)] as [string, Buffer]),
  deepBody.map((s) => ['deep', text(s)] as [string, Buffer]),
  hugeNumber.map((n) => ['huge-number', text(`{"name":"p","categoryId":${n}}`)] as [string, Buffer]),
  protoBody.map((s) => ['proto', text(s)] as [string, Buffer]),
  invalidUtf8.map((b) => ['invalid-utf8', b] as [string, Buffer]),
  fc.uint8Array({ maxLength: 300 }).map((a) => ['bytes', Buffer.from(a)] as [string, Buffer]),
  fc
    .integer({ min: 64 * 1024 - 8, max: 200 * 1024 })
    .map((n) => ['oversize', Buffer.alloc(n, 0x5b)] as [string, Buffer]),
  fc
    .record({ name: fc.anything(), categoryId: fc.anything(), status: fc.anything() }, { requiredKeys: [] })
    .map((v) => {
      let s = '';
      try {
        s = JSON.stringify(v) ?? '';
      } catch {
        // BigInt and friends: an empty body then
      }
      return ['wrong-types', text(s)] as [string, Buffer];
    }),
);

// Weighted towards what reaches the application (known method, valid key, /v1/pets): random methods
// and broken headers mostly exercise node's own parser, which answers 400 before the app sees anything.
const method = fc.oneof(
  { arbitrary: fc.constantFrom('GET', 'POST'), weight: 8 },
  { arbitrary: fc.constantFrom('HEAD', 'PUT', 'DELETE', 'OPTIONS', 'PATCH', 'TRACE', 'get', 'Post'), weight: 2 },
  { arbitrary: fc.stringMatching(/^[A-Z]{1,12}$/), weight: 1 },
);

const queryValue = fc.oneof(
  fc.constantFrom(
    '0',
    '1',
    '100',
    '101',
    '-1',
    '20.5',
    '1e2',
    '99999999999999999999',
    '',
    'available',
    'sold',
    'AVAILABLE',
    '%00',
    '%ff',
    '%',
    '__proto__',
  ),
  fc.string({ maxLength: 20 }).map(encodeURIComponent),
);

const path = fc.oneof(
  { arbitrary: fc.constant('/v1/pets'), weight: 4 },
  fc.constantFrom(
    '/v1/pets',
    '/v1/pets/1',
    '/v1/pets/0',
    '/v1/pets/-1',
    '/v1/pets/9223372036854775808',
    '/v1/pets/1.5',
    '/v1/pets/%ff',
    '/v1/pets/%',
    '/v1/pets/__proto__',
    '/v1/pets/constructor',
    '/v1/store/orders',
    '/v1',
    '/',
    '*',
    '/v1//pets',
    '/v1/pets/../pets',
    '/V1/PETS',
  ),
  fc
    .tuple(
      fc.constantFrom('/v1/pets?', '/v1/pets/1?'),
      fc.array(fc.tuple(fc.constantFrom('limit', 'status', 'limit', '__proto__', 'x', 'limit[]'), queryValue), {
        maxLength: 4,
      }),
    )
    .map(([p, q]) => p + q.map(([k, v]) => `${k}=${v}`).join('&')),
  fc.string({ maxLength: 60 }).map((s) => '/v1/pets/' + encodeURI(s)),
  fc
    .uint8Array({ minLength: 1, maxLength: 20 })
    .map((a) => '/v1/pets/' + Buffer.from(a.map((b) => (b < 0x21 || b === 0x7f ? 0x41 : b))).toString('latin1')),
);

const authorization = (key: string): fc.Arbitrary<Array<[string, string]>> =>
  fc.oneof(
    { arbitrary: fc.constant([['Authorization', `Bearer ${key}`]] as Array<[string, string]>), weight: 6 },
    fc
      .constantFrom(
        '',
        'Bearer',
        'Bearer ',
        `bearer ${key}`,
        `Bearer  ${key}`,
        `Basic ${key}`,
        key,
        `Bearer ${key}\xff`,
        'Bearer \xff\xfe',
      )
      .map((v) => [['Authorization', v]] as Array<[string, string]>),
    fc.constant([] as Array<[string, string]>),
  );

const extraHeaders: fc.Arbitrary<Array<[string, string]>> = fc.array(
  fc.oneof(
    { arbitrary: fc.constant<[string, string]>(['Content-Type', 'application/json']), weight: 10 },
    fc.constantFrom<[string, string]>(
      ['Content-Type', 'application/json'],
      ['Content-Type', 'text/plain'],
      ['Content-Type', 'application/json; charset=latin1'],
      ['Accept', 'text/html'],
      ['X-Forwarded-For', '1.2.3.4'],
      ['Expect', '100-continue'],
      ['Content-Encoding', 'gzip'],
    ),
    fc.tuple(
      fc.stringMatching(/^X-[A-Za-z0-9-]{1,20}$/),
      fc.string({ maxLength: 40 }).map((s) => s.replace(/[\r\n]/g, ' ')),
    ),
    {
      arbitrary: fc
        .integer({ min: 17 * 1024, max: 40 * 1024 })
        .map((n) => ['X-Huge', 'a'.repeat(n)] as [string, string]),
      weight: 1,
    },
  ),
  { maxLength: 3 },
);

/** A hostile but well-framed request: it ends where its Content-Length says, and asks to close. */
export function attack(key: string): fc.Arbitrary<Attack> {
  return fc
    .tuple(method, path, authorization(key), extraHeaders, fc.option(body, { freq: 4 }), fc.boolean())
    .map(([m, p, auth, extra, b, asChunks]) => ({
      kind: `${m} ${b ? b[0] : 'no-body'}${b && asChunks ? ' chunked' : ''}`,
      bytes: rawRequest(m, p, [...auth, ...extra], b ? b[1] : undefined, asChunks),
    }));
}
