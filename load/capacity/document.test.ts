import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../core/errors.ts';
import { parsePlansFile } from '../../spec/plans.ts';
import { documentFromEnv, documentText, readDocument } from './document.ts';
import { outputsFor } from './k6-run.ts';

const table = parsePlansFile({
  windows: { minuteSeconds: 10, daySeconds: 86_400 },
  plans: { free: { perMinute: 60, perDay: 1_000_000 } },
});
const keys = Array.from({ length: 6 }, (_, i) => ({ plan: 'free', key: `k${i}` }));

describe('the capacity run document', () => {
  it('round-trips as JSON: k6 reads the settings and plan petcert built, typed, not env strings', () => {
    const doc = documentFromEnv(
      { MIX: 'free=2', STEP: '1', MAX_VUS: '7', CANARIES: '0' },
      'http://127.0.0.1:1/v1',
      table,
      keys,
    );
    expect(readDocument(documentText(doc), 'run.json')).toEqual(doc);
    expect(doc).toMatchObject({
      step: 1,
      maxVus: 7,
      requestTimeoutMs: 10_000,
      settings: { stepSeconds: 60, canaries: false },
    });
  });
  it('refuses what is not a document of its version, and a step the plan does not have', () => {
    expect(() => readDocument('{"version":2}', 'run.json')).toThrow(ConfigError);
    expect(() => readDocument('not json', 'run.json')).toThrow('run.json: is not a JSON document');
    expect(() => documentFromEnv({ MIX: 'free=2', STEP: '9', CANARIES: '0' }, 'http://x/v1', table, keys)).toThrow(
      /STEP: no such step/,
    );
    expect(() => documentFromEnv({ MIX: 'free=2', MAX_VUS: '0', CANARIES: '0' }, 'http://x/v1', table, keys)).toThrow(
      /MAX_VUS/,
    );
  });
  it('a runner names its client certificate by path (CLIENT_CERT_FILE, CLIENT_KEY_FILE), for the target host only; one without the other is refused', () => {
    const env = { MIX: 'free=2', CANARIES: '0', CLIENT_CERT_FILE: '/c/tls.crt', CLIENT_KEY_FILE: '/c/tls.key' };
    expect(documentFromEnv(env, 'https://staging.example.com:8443/v1', table, keys).tls).toEqual({
      domains: ['staging.example.com'],
      certFile: '/c/tls.crt',
      keyFile: '/c/tls.key',
    });
    for (const url of ['https://[::1]:8443/v1', 'https://user@Staging.Example.com/v1', 'https://10.0.0.7/v1'])
      expect(documentFromEnv(env, url, table, keys).tls?.domains).toEqual([new URL(url).hostname]);
    expect(documentFromEnv({ MIX: 'free=2', CANARIES: '0' }, 'http://x/v1', table, keys).tls).toBeUndefined();
    expect(() =>
      documentFromEnv({ MIX: 'free=2', CANARIES: '0', CLIENT_CERT_FILE: '/c/tls.crt' }, 'http://x/v1', table, keys),
    ).toThrow(/CLIENT_KEY_FILE: a client certificate needs its key/);
  });
  it("k6 file outputs get one file per step process, relative to the caller's folder; other outputs pass as they are", () => {
    const outputs = [
      'json=k6.json',
      'csv=/tmp/out.csv.gz',
      'json=plain',
      'json=sub/k6.json',
      'experimental-prometheus-rw',
    ];
    expect(outputsFor(outputs, 's3', '/home/op')).toEqual([
      'json=/home/op/k6-s3.json',
      'csv=/tmp/out-s3.csv.gz',
      'json=/home/op/plain-s3',
      'json=/home/op/sub/k6-s3.json',
      'experimental-prometheus-rw',
    ]);
  });
});
