// §8.1 plan figures and window lengths, read from the contract, and the plans-file format shared by
// the reference server, `petcert quota` and the k6 scripts:
//   { "windows": { "minuteSeconds": 60, "daySeconds": 86400 },
//     "plans": { "free": { "perMinute": 60, "perDay": 1000 }, ... },
//     "limiterModel": "token-bucket" }
// Every key is optional; what is given overrides the specification's figures; new names add plans.
// Pure (no file I/O): spec/plans-file.ts reads files in Node, k6 scripts use open().
import { ConfigError } from '../core/errors.ts';
import { contract } from './contract.ts';

export interface Windows {
  minuteSeconds: number;
  daySeconds: number;
  /**
   * Server ms at which the windows start (window k = [origin + k·length, origin + (k+1)·length)); default 0,
   * the Unix epoch. Set programmatically only (the embedded target's windows start when it starts): the
   * reference server limits by it, the day probe plans its waits by it; no verdict rests on it.
   */
  originMs?: number;
}

export interface Plan {
  name: string;
  perMinute: number;
  perDay: number;
}

/** A plan whose figures are null is "custom" (§8.1 Enterprise) until a plans file gives them. */
export interface PlanFigures {
  perMinute: number | null;
  perDay: number | null;
}

/**
 * The models a vendor may declare its plans follow (load/probes/reading.ts): a refilling bucket of the
 * plan's figure (GCRA is one, scheduled by arrival times). Undeclared, the specification's windows apply.
 */
export const DECLARABLE_MODELS = ['token-bucket', 'gcra'] as const;

export type DeclaredModel = (typeof DECLARABLE_MODELS)[number];

export const isDeclarable = (value: unknown): value is DeclaredModel =>
  (DECLARABLE_MODELS as readonly unknown[]).includes(value);

/** A declared model, from a flag or a file: one of DECLARABLE_MODELS, else a configuration error at `where`. */
export function declaredModel(value: unknown, where: string): DeclaredModel {
  if (isDeclarable(value)) return value;
  throw new ConfigError(`must be one of ${DECLARABLE_MODELS.join(', ')}, got ${JSON.stringify(value)}`, where);
}

export interface PlanTable {
  windows: Windows;
  plans: Record<string, PlanFigures>;
  /** The limiter model the vendor declares (`limiterModel`); undefined: the window reading. */
  limiterModel?: DeclaredModel;
}

const limits = contract['x-rate-limits'];

export const SPEC_WINDOWS: Windows = { ...limits.windows };

export function specPlanTable(): PlanTable {
  const plans: Record<string, PlanFigures> = {};
  for (const [name, p] of Object.entries(limits.plans)) plans[name] = { perMinute: p.perMinute, perDay: p.perDay };
  return { windows: { ...SPEC_WINDOWS }, plans };
}

/** Plan names are case-insensitive ("Free" and "free" are one plan). */
export const normalizePlanName = (name: string): string => name.trim().toLowerCase();

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `separator` ': ' at the top level, where `where` is a file path ("plans.json: extra", not "plans.json.extra"). */
function rejectUnknownKeys(
  value: Record<string, unknown>,
  allowed: readonly string[],
  where: string,
  separator = '.',
): void {
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key))
      throw new ConfigError(`unknown field (allowed: ${allowed.join(', ')})`, `${where}${separator}${key}`);
  }
}

function positiveInteger(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
    throw new ConfigError(`must be a positive integer, got ${JSON.stringify(value)}`, field);
  }
  return value;
}

function parseWindows(value: unknown, base: Windows, where: string): Windows {
  if (value === undefined) return base;
  if (!isRecord(value)) throw new ConfigError('must be an object', where);
  rejectUnknownKeys(value, ['minuteSeconds', 'daySeconds'], where);
  const windows = {
    minuteSeconds:
      value.minuteSeconds === undefined
        ? base.minuteSeconds
        : positiveInteger(value.minuteSeconds, `${where}.minuteSeconds`),
    daySeconds:
      value.daySeconds === undefined ? base.daySeconds : positiveInteger(value.daySeconds, `${where}.daySeconds`),
  };
  if (windows.daySeconds < windows.minuteSeconds) {
    throw new ConfigError(
      `daySeconds (${windows.daySeconds}) is shorter than minuteSeconds (${windows.minuteSeconds})`,
      where,
    );
  }
  if (windows.daySeconds % windows.minuteSeconds !== 0) {
    // Epoch-aligned windows only nest when the day is a whole number of minutes.
    throw new ConfigError(
      `daySeconds (${windows.daySeconds}) must be a multiple of minuteSeconds (${windows.minuteSeconds})`,
      where,
    );
  }
  return windows;
}

function parsePlan(value: unknown, base: PlanFigures | undefined, where: string): PlanFigures {
  if (!isRecord(value)) throw new ConfigError('must be an object like { "perMinute": 60, "perDay": 1000 }', where);
  rejectUnknownKeys(value, ['perMinute', 'perDay'], where);
  const figure = (key: 'perMinute' | 'perDay'): number | null => {
    if (value[key] !== undefined) return positiveInteger(value[key], `${where}.${key}`);
    if (base) return base[key];
    throw new ConfigError('is required for a plan the specification does not define', `${where}.${key}`);
  };
  return { perMinute: figure('perMinute'), perDay: figure('perDay') };
}

/** Validates a parsed plans file and merges it over the specification's figures. */
export function parsePlansFile(value: unknown, source = 'plans file'): PlanTable {
  if (!isRecord(value))
    throw new ConfigError('must be a JSON object with optional "windows", "plans" and "limiterModel"', source);
  rejectUnknownKeys(value, ['windows', 'plans', 'limiterModel'], source, ': ');
  const table = specPlanTable();
  const windows = parseWindows(value.windows, table.windows, `${source}: windows`);
  const declared =
    value.limiterModel === undefined
      ? {}
      : { limiterModel: declaredModel(value.limiterModel, `${source}: limiterModel`) };
  if (value.plans === undefined) return { windows, plans: table.plans, ...declared };
  if (!isRecord(value.plans)) throw new ConfigError('must be an object of plan name → figures', `${source}: plans`);
  const plans = { ...table.plans };
  const seen = new Set<string>();
  for (const [rawName, figures] of Object.entries(value.plans)) {
    const name = normalizePlanName(rawName);
    if (!/^[a-z0-9][a-z0-9_-]*$/.test(name))
      throw new ConfigError('plan names use letters, digits, - and _', `${source}: plans.${rawName}`);
    // "Free" and "free" are one plan: two entries for it would silently drop one set of figures.
    if (seen.has(name))
      throw new ConfigError(
        `plan "${name}" given twice (plan names are case-insensitive)`,
        `${source}: plans.${rawName}`,
      );
    seen.add(name);
    plans[name] = parsePlan(figures, table.plans[name], `${source}: plans.${rawName}`);
  }
  return { windows, plans, ...declared };
}

/** The plan a key is on, with figures; a custom plan without figures is a configuration error. */
export function resolvePlan(table: PlanTable, name: string): Plan {
  const key = normalizePlanName(name);
  const figures = table.plans[key];
  if (!figures) throw new ConfigError(`unknown plan "${name}" (known: ${Object.keys(table.plans).join(', ')})`, 'plan');
  if (figures.perMinute === null || figures.perDay === null) {
    throw new ConfigError(`plan "${key}" has custom figures (§8.1): give perMinute and perDay in a plans file`, 'plan');
  }
  return { name: key, perMinute: figures.perMinute, perDay: figures.perDay };
}

/** Plans that have figures, in table order. */
export function concretePlans(table: PlanTable): Plan[] {
  return Object.keys(table.plans)
    .filter((name) => table.plans[name]!.perMinute !== null && table.plans[name]!.perDay !== null)
    .map((name) => resolvePlan(table, name));
}
