import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../core/errors.ts';
import { specPlanTable } from '../../spec/plans.ts';
import { readSettings, SETTINGS } from './settings.ts';

const table = specPlanTable();

describe('readSettings', () => {
  it('defaults: 8 steps of 60 s up to 2 ×, utilisation 1, the default SLO and ops, canaries on', () => {
    const s = readSettings({ MIX: 'free=10' }, table);
    expect(s).toMatchObject({
      utilisation: 1,
      stepSeconds: 60,
      steps: 8,
      maxFactor: 2,
      scaleToKeys: false,
      minHeadroom: 1,
      canaries: true,
      ops: { list: 80, get: 15, create: 5 },
    });
    expect(s.slo).toEqual({ latency: { '95': 250, '99': 500 }, errorRate: 0.005 });
  });
  it('without a mix the keys are the customers, scaled to what they carry', () => {
    expect(readSettings({}, table)).toMatchObject({ mix: null, scaleToKeys: true });
  });
  it('reads the same names the k6 script gets, and a bad value names the flag', () => {
    expect(
      readSettings(
        { MIX: 'free=1', STEP_SECONDS: '2', STEPS: '3', MAX_FACTOR: '1.5', CANARIES: '0', SCALE_TO_KEYS: '1' },
        table,
      ),
    ).toMatchObject({ stepSeconds: 2, steps: 3, maxFactor: 1.5, canaries: false, scaleToKeys: true });
    for (const [env, flag] of [
      ['STEP_SECONDS', '--step-seconds'],
      ['STEPS', '--steps'],
      ['MAX_FACTOR', '--max-factor'],
      ['MIN_HEADROOM', '--min-headroom'],
    ] as const) {
      expect(() => readSettings({ MIX: 'free=1', [env]: '-1' }, table)).toThrow(ConfigError);
      expect(() => readSettings({ MIX: 'free=1', [env]: 'x' }, table)).toThrow(flag);
    }
  });
  it('has one env name and one flag per setting', () => {
    const envs = Object.values(SETTINGS).map((s) => s.env);
    expect(new Set(envs).size).toBe(envs.length);
  });
});
