// The run's settings, read from one record of named values: the k6 script's __ENV and the flags of
// `petcert capacity` (which passes them to k6 under the same names), so both read them with this one
// parser and can never disagree. Every problem is a ConfigError naming the flag.
import { ConfigError } from '../../core/errors.ts';
import type { PlanTable } from '../../spec/plans.ts';
import { DEFAULT_OPS, parseMix, parseOps, parseUtilisation, type MixEntry, type OpsMix } from './mix.ts';
import { DEFAULT_SLO, parseSlo, type Slo } from './slo.ts';

export interface CapacitySettings {
  /** null: one customer per key given (the plain `k6 run` default). */
  mix: MixEntry[] | null;
  utilisation: number;
  ops: OpsMix;
  stepSeconds: number;
  steps: number;
  maxFactor: number;
  scaleToKeys: boolean;
  slo: Slo;
  minHeadroom: number;
  canaries: boolean;
}

/** Flag ↔ environment name, and the default written once. */
export const SETTINGS = {
  mix: { env: 'MIX', flag: '--mix', default: undefined },
  utilisation: { env: 'UTILISATION', flag: '--utilisation', default: '1' },
  ops: { env: 'OPS', flag: '--ops', default: DEFAULT_OPS },
  stepSeconds: { env: 'STEP_SECONDS', flag: '--step-seconds', default: '60' },
  steps: { env: 'STEPS', flag: '--steps', default: '8' },
  maxFactor: { env: 'MAX_FACTOR', flag: '--max-factor', default: '2' },
  scaleToKeys: { env: 'SCALE_TO_KEYS', flag: '--scale-to-keys', default: undefined },
  slo: { env: 'SLO', flag: '--slo', default: DEFAULT_SLO },
  minHeadroom: { env: 'MIN_HEADROOM', flag: '--min-headroom', default: '1' },
  canaries: { env: 'CANARIES', flag: '--no-canaries', default: '1' },
} as const satisfies Record<keyof CapacitySettings, { env: string; flag: string; default: string | undefined }>;

export type SettingsEnv = Record<string, string | undefined>;

function number(raw: string, flag: string, min: number, max: number, integer = false): number {
  const value = Number(raw);
  if (
    raw.trim() === '' ||
    !Number.isFinite(value) ||
    value < min ||
    value > max ||
    (integer && !Number.isInteger(value))
  ) {
    throw new ConfigError(
      `must be ${integer ? 'an integer' : 'a number'} from ${min} to ${max}, got ${JSON.stringify(raw)}`,
      flag,
    );
  }
  return value;
}

const flagOn = (raw: string | undefined): boolean =>
  raw !== undefined && raw !== '' && raw !== '0' && raw.toLowerCase() !== 'false';

export function readSettings(env: SettingsEnv, plans: PlanTable): CapacitySettings {
  const get = (k: keyof typeof SETTINGS): string | undefined => {
    const v = env[SETTINGS[k].env];
    return v === undefined || v === '' ? SETTINGS[k].default : v;
  };
  const mixText = get('mix');
  const mix = mixText === undefined ? null : parseMix(mixText, plans);
  const maxFactor = number(get('maxFactor')!, SETTINGS.maxFactor.flag, 0.5, 20);
  return {
    mix,
    utilisation: parseUtilisation(get('utilisation')),
    ops: parseOps(get('ops')),
    stepSeconds: number(get('stepSeconds')!, SETTINGS.stepSeconds.flag, 1, 3600),
    steps: number(get('steps')!, SETTINGS.steps.flag, 2, 40, true),
    maxFactor,
    // Without a mix the keys themselves are the customers: they can only carry 90 % of it, so scale.
    scaleToKeys: mix === null || flagOn(get('scaleToKeys')),
    slo: parseSlo(get('slo')),
    minHeadroom: number(get('minHeadroom')!, SETTINGS.minHeadroom.flag, 0, 20),
    canaries: flagOn(get('canaries')),
  };
}
