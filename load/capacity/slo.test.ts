import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../core/errors.ts';
import { DEFAULT_SLO, parseSlo, reportedPercentiles, sloBreaches } from './slo.ts';

describe('parseSlo', () => {
  it('reads the default: p99 and p95 bounds in ms and an error share', () => {
    expect(parseSlo(DEFAULT_SLO)).toEqual({ latency: { '99': 500, '95': 250 }, errorRate: 0.005 });
  });
  it('reads seconds and other percentiles', () => {
    expect(parseSlo('p90<0.2s')).toEqual({ latency: { '90': 200 }, errorRate: null });
  });
  it.for(['p100<5ms', 'p99>5ms', 'latency<5', '', 'errors<x%'])('rejects %j with a ConfigError', (text) => {
    expect(() => parseSlo(text)).toThrow(ConfigError);
  });
});

describe('sloBreaches', () => {
  const slo = parseSlo(DEFAULT_SLO);
  it('is empty when every bound holds', () => {
    expect(sloBreaches(slo, { '95': 100, '99': 499 }, 0.004)).toEqual([]);
  });
  it('names each broken term; a bound is strict and a missing figure breaks', () => {
    expect(sloBreaches(slo, { '95': 250, '99': undefined }, 0.005)).toEqual([
      'p95 250 ms ≥ 250 ms',
      'p99 unknown ≥ 500 ms',
      'errors 0.50% ≥ 0.50%',
    ]);
  });
  it('always reports p50/p95/p99 plus what the SLO names', () => {
    expect(reportedPercentiles(parseSlo('p90<1s'))).toEqual(['50', '90', '95', '99']);
  });
});
