// The catalog of limiter models petcert knows: one entry per model, with the recognisers that tell it from
// the evidence and the traits the rules ask. §8 gives quotas per minute and per day and a Reset "at which
// the limit resets"; it does not say the windows are fixed, so every model here is a correct server's, and
// a rule that holds for one model only asks the model's traits (never its name) whether it binds.
// spec/GAPS.md keeps one row per entry (catalog.test.ts checks they match).
import { admittedTooSoon, refusedTooEarly, resetsNoFixedWindow } from './bucket-fit.ts';
import { dayRefills, gaveBackFew, refusalBeforeReset } from './day-refill.ts';
import { fixedDayUnshown } from './fixed-day.ts';
import { afterNeeded, inferModel, laterNeeded, type ModelVerdict } from './minute-count.ts';
import type { LimiterModelName, ModelName } from './names.ts';
import { toldByCount, toldByResets } from './two-limiters.ts';

export { MODEL_NAMES, type LimiterModelName, type ModelName } from './names.ts';

/** What the rules ask of a model. */
export interface Traits {
  /** The evidence told a model: the rules that need one can judge. */
  told: boolean;
  /**
   * Whether the fixed-window rules bind it (one Reset for the whole window, the next window's whole
   * allowance after a 429, whether 429s consume the day): they apply, do not apply (another model), or
   * cannot be judged (the model is unknown).
   */
  fixedWindowRules: 'apply' | 'not-applicable' | 'unjudged';
  /** Where its windows start: on a clock's grid (its Reset is the grid's end), or at a key's first request. */
  start?: 'aligned' | 'first-request';
  /** What it may admit beyond its figure over a span: nothing (one window holds a count), or its refill at the figure per window. */
  overSpan: 'nothing' | 'refill';
  /** It keeps fixed windows of its own, whose ends give the allowance back under the window reading too. */
  ownWindows: boolean;
  /** Simultaneous answers may share a Remaining value: it refills between them. */
  remainingMayRepeat: boolean;
  /** Remaining may grow between two answers of one quota (a refill, a request ageing out). */
  remainingMayGrow: boolean;
  /** The last window's count still weighs at the next one's start: a count from a full allowance idles one window more. */
  weighsLastWindow: boolean;
  /** It refills past its figure at a steady pace: a pace above its refill need not run it dry within a span. */
  refillsPastFigure: boolean;
  /** What an admitted answer's Reset names. */
  reset: string;
  /** What a 429's Reset and Retry-After name. */
  refusal: string;
}

/** Names other vocabularies give a catalog model: the reference server's `limiterModel`, testkit's shapes, a declared model. */
export interface Aliases {
  /** reference/variants.ts LIMITER_MODELS. */
  reference?: string;
  /** testkit/load/limiter-shapes.ts MeterKind, or `chain` for its two-limiter HeaderMode. */
  shape?: string;
  /** spec/plans.ts DECLARABLE_MODELS (`--limiter-model`). */
  declared?: string;
}

export interface ModelEntry {
  name: ModelName;
  /** The model in a few words (spec/GAPS.md's row). */
  title: string;
  /** What the probes tell it as, with enough resolution first; the others it may be told as. */
  toldAs: readonly [LimiterModelName, ...LimiterModelName[]];
  /** The pure functions over the evidence that tell it (minute count, Resets of 429s, the day's own answers). */
  recognisers: ReadonlyArray<(...args: never[]) => unknown>;
  traits: Traits;
  aliases: Aliases;
}

const FIXED: Omit<Traits, 'start' | 'reset'> = {
  told: true,
  fixedWindowRules: 'apply',
  overSpan: 'nothing',
  ownWindows: false,
  remainingMayRepeat: false,
  remainingMayGrow: false,
  weighsLastWindow: false,
  refillsPastFigure: false,
  refusal: "the window's end",
};

const REFILLING: Omit<Traits, 'reset' | 'refusal'> = {
  told: true,
  fixedWindowRules: 'not-applicable',
  overSpan: 'refill',
  ownWindows: false,
  remainingMayRepeat: true,
  remainingMayGrow: true,
  weighsLastWindow: false,
  refillsPastFigure: true,
};

const BUCKET_TRAITS: Traits = {
  ...REFILLING,
  reset: 'when the bucket is full again (each request pushes it further)',
  refusal: 'when one token is back',
};

const TWO_LIMITER_RECOGNISERS = [
  toldByCount,
  refusedTooEarly,
  admittedTooSoon,
  toldByResets,
  resetsNoFixedWindow,
  dayRefills,
  refusalBeforeReset,
  gaveBackFew,
];

export const CATALOG: Readonly<Record<ModelName, ModelEntry>> = {
  'fixed-aligned': {
    name: 'fixed-aligned',
    title: 'fixed windows aligned to a clock (the epoch, the server start)',
    toldAs: ['fixed', 'unknown'],
    recognisers: [inferModel],
    traits: { ...FIXED, start: 'aligned', reset: "the window's end, one instant for the whole window" },
    aliases: { reference: 'fixed', shape: 'aligned' },
  },
  'fixed-first-request': {
    name: 'fixed-first-request',
    title: "fixed windows opened by a key's first request after its last window ended",
    toldAs: ['fixed', 'sliding-log'],
    recognisers: [inferModel, laterNeeded, afterNeeded],
    traits: { ...FIXED, start: 'first-request', reset: "the window's end, one instant for the whole window" },
    aliases: { reference: 'first-request', shape: 'first-use' },
  },
  fixed: {
    name: 'fixed',
    title: 'fixed windows whose start the evidence does not show (two limiters: told by a count and its 429)',
    toldAs: ['fixed'],
    recognisers: [toldByCount, refusedTooEarly, admittedTooSoon],
    traits: { ...FIXED, reset: "the window's end, one instant for the whole window" },
    aliases: {},
  },
  'sliding-log': {
    name: 'sliding-log',
    title: 'a sliding log (at most N in any trailing window)',
    toldAs: ['sliding-log', 'token-bucket'],
    recognisers: [inferModel, afterNeeded],
    traits: {
      ...REFILLING,
      remainingMayRepeat: false,
      refillsPastFigure: false,
      reset: "now + a window, or its oldest request's expiry (the limits library's moving window)",
      refusal: 'when enough requests age out for one more',
    },
    aliases: { reference: 'sliding-log', shape: 'moving-window' },
  },
  'sliding-counter': {
    name: 'sliding-counter',
    title: "a sliding window counter (the last window's count weighted by its overlap)",
    toldAs: ['sliding-counter'],
    recognisers: [inferModel],
    traits: {
      ...REFILLING,
      ownWindows: true,
      weighsLastWindow: true,
      refillsPastFigure: false,
      reset: "its own fixed window's end",
      refusal: 'when one more fits',
    },
    aliases: { reference: 'sliding-counter', shape: 'sliding-counter' },
  },
  'token-bucket': {
    name: 'token-bucket',
    title: "a token bucket (capacity the plan's figure, refilled at the figure per window)",
    toldAs: ['token-bucket', 'sliding-log'],
    recognisers: [inferModel, ...TWO_LIMITER_RECOGNISERS],
    traits: BUCKET_TRAITS,
    aliases: { reference: 'token-bucket', shape: 'token-bucket', declared: 'token-bucket' },
  },
  gcra: {
    name: 'gcra',
    title: 'GCRA (redis-cell, throttled): a token bucket kept as a theoretical arrival time',
    toldAs: ['token-bucket', 'sliding-log'],
    recognisers: [inferModel, ...TWO_LIMITER_RECOGNISERS],
    traits: { ...BUCKET_TRAITS, reset: 'the theoretical arrival time (when the bucket is full again)' },
    aliases: { shape: 'gcra', declared: 'gcra' },
  },
  'two-limiters': {
    name: 'two-limiters',
    title: 'two independent limiters, each writing its own X-RateLimit-* (the last to run wins)',
    toldAs: ['unknown', 'fixed', 'token-bucket'],
    recognisers: [...TWO_LIMITER_RECOGNISERS, fixedDayUnshown],
    traits: unknownTraits(),
    aliases: { shape: 'chain' },
  },
  unknown: {
    name: 'unknown',
    title: 'a model the evidence does not tell (the rules that need one are unjudged, with what would tell it)',
    toldAs: ['unknown'],
    recognisers: [],
    traits: unknownTraits(),
    aliases: {},
  },
};

/** Nothing told: the fixed-window rules cannot be judged, and a refill is not ruled out. */
function unknownTraits(): Traits {
  return {
    told: false,
    fixedWindowRules: 'unjudged',
    overSpan: 'refill',
    ownWindows: false,
    remainingMayRepeat: false,
    remainingMayGrow: true,
    weighsLastWindow: false,
    refillsPastFigure: false,
    reset: 'not shown',
    refusal: 'not shown',
  };
}

/** The entry a told label stands for (a fixed window by its start when shown). */
const TOLD: Readonly<Record<LimiterModelName, ModelName>> = {
  fixed: 'fixed',
  'sliding-log': 'sliding-log',
  'sliding-counter': 'sliding-counter',
  'token-bucket': 'token-bucket',
  unknown: 'unknown',
};

/** The catalog entry of what the evidence told for a key; undefined (the minute probe did not run): unknown. */
export function entryOf(v: Pick<ModelVerdict, 'model' | 'start'> | undefined): ModelEntry {
  if (v === undefined) return CATALOG.unknown;
  if (v.start) return CATALOG[v.start === 'aligned' ? 'fixed-aligned' : 'fixed-first-request'];
  return CATALOG[TOLD[v.model]];
}

/** The traits of what the evidence told (the rules ask these, never the model's name). */
export const traitsOf = (v: Pick<ModelVerdict, 'model' | 'start'> | undefined): Traits => entryOf(v).traits;

/** The traits of a told label alone (the reading and allowances, which see no start). */
export const traitsOfName = (model: LimiterModelName): Traits => CATALOG[TOLD[model]].traits;

/** The catalog model another vocabulary's name stands for (reference server, testkit shape, declared model). */
export function fromAlias(vocabulary: keyof Aliases, name: string): ModelName | undefined {
  return Object.values(CATALOG).find((e) => e.aliases[vocabulary] === name)?.name;
}
