// Other *correct* answers to the specification's gaps (spec/GAPS.md). Each variant is a server petcert
// must pass; the defaults below are the reference server's own choices.
export interface ReferenceVariants {
  /** Which quota X-RateLimit-* report when minute and day both apply (§8.2 does not say). */
  headerQuota?: 'closest' | 'minute' | 'day';
  /**
   * The limiter's model (§8 gives quotas per minute and day, not how they are counted; spec/GAPS.md):
   * fixed windows (default), fixed windows each opened by the key's first request after the last one
   * ended ('first-request': express-rate-limit's and rate-limiter-flexible's memory stores), a sliding log
   * (at most N in any trailing window), a sliding window counter (the previous window's count weighted by
   * its overlap), or a token bucket (capacity and refill from the plan: N tokens, N per window).
   * reference/limiter-models.ts says what each reports in the headers.
   */
  limiterModel?: LimiterModel;
  /** Retry-After as delay-seconds or an HTTP-date (RFC 9110 §10.2.3 allows both). */
  retryAfterForm?: 'seconds' | 'http-date';
  /** 429 responses count against the quota (current windows). */
  rejectedConsume?: boolean;
  /** 429 body shape (§7: not shown). */
  tooManyBody?: 'error' | 'empty' | 'text';
  /** `status` of a pet created without one: "available", or left out (null). */
  defaultStatus?: 'available' | null;
  /** Order of GET /pets (§4.1 rule 3: not shown). */
  order?: 'oldest' | 'newest' | 'shuffled';
  /** `limit` outside 1–100 or not an integer: 400, or clamp into range (non-integers → the default). */
  limitOutOfRange?: 'reject' | 'clamp';
  /** `status` filter outside PetStatus: 400, or 200 with an empty list. */
  unknownStatusFilter?: 'reject' | 'empty';
  /** petId that is not an int64: 400 or 404. */
  badPetId?: 400 | 404;
  /** Names longer than this many code points are rejected with 400. */
  maxNameLength?: number;
  /** Body fields NewPet does not define: ignored (not stored) or 400. */
  unknownFields?: 'ignore' | 'reject';
  /** Only these category ids are accepted (others 400); undefined: any int64. */
  categories?: number[];
  /** JSON numbers like 1.0 or 1e2 as categoryId: integers per JSON Schema ('schema'), or 400 ('strict'). */
  integerForms?: 'schema' | 'strict';
  /**
   * A request with bad credentials AND an invalid NewPet body: 401 ('auth', checked first) or 400 ('validation').
   * 'validation' is NOT conformant (§1/§5 require 401 first; spec/GAPS.md): it exists to prove petcert catches it.
   */
  precedence?: 'auth' | 'validation';
  /** Media type of Error bodies. */
  errorContentType?: 'application/json' | 'application/problem+json';
}

export const LIMITER_MODELS = ['fixed', 'first-request', 'sliding-log', 'sliding-counter', 'token-bucket'] as const;
export type LimiterModel = (typeof LIMITER_MODELS)[number];

export type ResolvedVariants = Required<Omit<ReferenceVariants, 'categories'>> & {
  categories: ReadonlySet<string> | undefined;
};

/** The reference server's own choices. */
export const DEFAULT_VARIANTS = {
  headerQuota: 'closest',
  limiterModel: 'fixed',
  retryAfterForm: 'seconds',
  rejectedConsume: false,
  tooManyBody: 'error',
  defaultStatus: null,
  order: 'oldest',
  limitOutOfRange: 'reject',
  unknownStatusFilter: 'reject',
  badPetId: 400,
  maxNameLength: 1000,
  unknownFields: 'ignore',
  integerForms: 'schema',
  precedence: 'auth',
  errorContentType: 'application/json',
} as const satisfies Omit<ResolvedVariants, 'categories'>;

export function resolveVariants(variants: ReferenceVariants = {}): ResolvedVariants {
  const defined = Object.fromEntries(Object.entries(variants).filter(([, v]) => v !== undefined)) as ReferenceVariants;
  const { categories, ...rest } = defined;
  // Category ids are compared as canonical decimal text, the form the body parser produces for any int64.
  return {
    ...DEFAULT_VARIANTS,
    ...rest,
    categories: categories ? new Set(categories.map((c) => BigInt(c).toString())) : undefined,
  };
}
