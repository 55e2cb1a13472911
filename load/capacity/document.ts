// What one k6 process of a capacity run is told, as one typed JSON document: the target, the settings
// and the plan as `petcert capacity` built them (once, in Node), which step(s) to run, the generator's
// bounds. petcert writes it to a private file and hands k6 its path (CAPACITY_RUN), so settings never
// travel as env strings to be parsed again, and keys never appear in k6's arguments. A plain
// `k6 run` (or a k6-operator runner) has no document: it builds the same one from its environment.
import { ConfigError } from '../../core/errors.ts';
import { DEFAULT_REQUEST_TIMEOUT_MS } from '../../core/request-timeout.ts';
import type { PlanTable } from '../../spec/plans.ts';
import type { PlanKey } from './keys-file.ts';
import { buildPlan, type CapacityPlan } from './plan.ts';
import { readSettings, type CapacitySettings, type SettingsEnv } from './settings.ts';

export const DOCUMENT_VERSION = 1;
/** VUs per scenario at most, when not given: bounds the generator's memory. */
export const DEFAULT_MAX_VUS = 1000;

export interface CapacityDocument {
  version: typeof DOCUMENT_VERSION;
  baseUrl: string;
  settings: CapacitySettings;
  plan: CapacityPlan;
  /** Run only this step (petcert runs one k6 process per step to stop early); null: every step. */
  step: number | null;
  maxVus: number;
  requestTimeoutMs: number;
  /** The client certificate k6 presents to the target (options.tlsAuth), by path: its key never travels in here. */
  tls?: DocumentTls;
}

export interface DocumentTls {
  /** The target's host name: k6 presents the certificate there only. */
  domains: string[];
  /** Absolute paths of the PEM certificate and (unencrypted) key, read by k6's open() at init. */
  certFile: string;
  keyFile: string;
}

export function documentText(doc: CapacityDocument): string {
  return JSON.stringify(doc);
}

export function readDocument(text: string, source: string): CapacityDocument {
  let doc: Partial<CapacityDocument>;
  try {
    doc = JSON.parse(text) as Partial<CapacityDocument>;
  } catch {
    throw new ConfigError('is not a JSON document', source);
  }
  if (doc.version !== DOCUMENT_VERSION || typeof doc.baseUrl !== 'string' || !doc.settings || !doc.plan) {
    throw new ConfigError(`is not a petcert capacity run document of version ${DOCUMENT_VERSION}`, source);
  }
  return doc as CapacityDocument;
}

const positive = (raw: string | undefined, name: string, fallback: number): number => {
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1)
    throw new ConfigError(`must be a whole number ≥ 1, got ${JSON.stringify(raw)}`, name);
  return n;
};

/**
 * The client certificate of a run without petcert, by path: CLIENT_CERT_FILE and CLIENT_KEY_FILE (a
 * k6-operator runner names the files of its mounted Secret), presented to the target's host only.
 */
function tlsFromEnv(env: SettingsEnv, baseUrl: string): DocumentTls | undefined {
  const certFile = env.CLIENT_CERT_FILE || undefined;
  const keyFile = env.CLIENT_KEY_FILE || undefined;
  if (certFile === undefined && keyFile === undefined) return undefined;
  if (certFile === undefined || keyFile === undefined)
    throw new ConfigError(
      'a client certificate needs its key: give both CLIENT_CERT_FILE and CLIENT_KEY_FILE',
      certFile === undefined ? 'CLIENT_CERT_FILE' : 'CLIENT_KEY_FILE',
    );
  // k6 has no URL global: the host name as URL.hostname gives it (an IPv6 address in brackets).
  const host = /^[a-z][a-z0-9+.-]*:\/\/(?:[^@/]*@)?(\[[^\]]*\]|[^:/?#]*)/i.exec(baseUrl)?.[1]?.toLowerCase() ?? '';
  return { domains: [host], certFile, keyFile };
}

/** The document of a run without petcert: settings from the environment's names (settings.ts). */
export function documentFromEnv(
  env: SettingsEnv,
  baseUrl: string,
  plans: PlanTable,
  keys: readonly PlanKey[],
): CapacityDocument {
  const settings = readSettings(env, plans);
  // The spread is checked for one runner here; `petcert capacity --emit-testrun N` checks it for N.
  const plan = buildPlan(settings, plans, keys);
  const step = env.STEP === undefined || env.STEP === '' ? null : Number(env.STEP);
  if (step !== null && !plan.steps.some((s) => s.index === step)) {
    throw new ConfigError(`no such step (0..${plan.steps.length - 1}), got ${JSON.stringify(env.STEP)}`, 'STEP');
  }
  const tls = tlsFromEnv(env, baseUrl);
  return {
    version: DOCUMENT_VERSION,
    baseUrl,
    settings,
    plan,
    step,
    maxVus: positive(env.MAX_VUS, 'MAX_VUS', DEFAULT_MAX_VUS),
    requestTimeoutMs: positive(env.REQUEST_TIMEOUT_MS, 'REQUEST_TIMEOUT_MS', DEFAULT_REQUEST_TIMEOUT_MS),
    ...(tls ? { tls } : {}),
  };
}

/** The document every VU holds: the load keys left out (they stay shared, read one at a time). */
export function withoutLoadKeys(doc: CapacityDocument): CapacityDocument {
  const load = Object.fromEntries(Object.keys(doc.plan.load).map((p) => [p, []]));
  return { ...doc, plan: { ...doc.plan, load } };
}
