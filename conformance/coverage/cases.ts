// The coverage cases bound to the checks that judge them: each case is one named input of an existing
// check (so a rule is judged by one function, whether the input came from the contract or from
// fast-check), or, for what is only recorded, a request and an OBSERVE tally.
import { MISSING, type Credential } from '../arbitraries/credentials.ts';
import { invalidCredentials, OPS } from '../checks/auth.ts';
import { createValid, invalidValue, missingField, unknownFields } from '../checks/create.ts';
import { int64Field, nullOptional } from '../checks/create-edges.ts';
import { unspecifiedEndpoints } from '../checks/endpoints.ts';
import { absent, badId } from '../checks/get.ts';
import { limitOutOfRangeCheck, unknownStatus, validQuery } from '../checks/list.ts';
import type { CheckMeta, Finding, RunVerdict, ScenarioCheck } from '../checks/types.ts';
import { bearer, createRequest, type RunContext } from '../context.ts';
import { someCategory } from '../create-pet.ts';
import { NAMES as RATE_LIMIT_NAMES } from '../checks/ratelimit.ts';
import { deriveCases, type CaseSpec, type CredentialKind, type Family } from './derive.ts';

export interface CoverageCase {
  spec: CaseSpec;
  /** The check the verdict (or the record) belongs to. */
  check: CheckMeta;
  /** Most requests the case can take (a valid pet may be re-sent: create-pet.ts); the budget reserves this. */
  cost: number;
  run(ctx: RunContext): Promise<RunVerdict>;
  /**
   * Whether a case that found nothing wrong decided anything, from the statuses its requests got: a
   * valid pet refused by a server that knows only some categories (GAPS.md) is undecided, not a pass.
   */
  decided?: (statuses: readonly number[]) => boolean;
  /** The judging check's own reason not to run here (e.g. categoryId fixed by --category-id). */
  skipIf?: ScenarioCheck['skipIf'];
}

const created = (statuses: readonly number[]): boolean => statuses.includes(201);

/** Families whose answers only show a fault once the store holds pets of every status and more than a page. */
export const NEEDS_PETS: readonly Family[] = ['limit', 'status-filter'];

function via<T>(
  spec: CaseSpec,
  check: ScenarioCheck<T>,
  input: (ctx: RunContext) => T,
  extra: Partial<CoverageCase> = {},
): CoverageCase {
  return {
    spec,
    check,
    cost: 1,
    run: (ctx) => check.run(input(ctx), ctx),
    ...(check.skipIf ? { skipIf: check.skipIf } : {}),
    ...extra,
  };
}

function credentialOf(kind: CredentialKind, apiKey: string): Credential {
  const credentials: Record<CredentialKind, Credential> = {
    missing: MISSING,
    // The key itself under another scheme (§5: the scheme is Bearer): a server that reads the token after
    // the first space and never checks the scheme accepts it; one that takes any Basic credential too.
    // The key appears as written, so redaction still hides it (a base64 form would not be).
    'other-scheme': { kind: 'other-scheme', header: `Basic ${apiKey}` },
    'bare-token': { kind: 'bare-key', header: apiKey },
    'empty-token': { kind: 'bearer-empty', header: 'Bearer ' },
    'unknown-token': { kind: 'bearer-unknown', header: `Bearer ${apiKey}x` },
  };
  return credentials[kind];
}

const hasRateHeaders = (headers: Record<string, string>): string => {
  const present = RATE_LIMIT_NAMES.filter((n) => headers[n] !== undefined).length;
  return present === RATE_LIMIT_NAMES.length
    ? 'with X-RateLimit-*'
    : present === 0
      ? 'without X-RateLimit-*'
      : 'with only some X-RateLimit-*';
};

function bind(spec: CaseSpec): CoverageCase {
  const e = spec.expect;
  switch (e.kind) {
    case 'create-refused':
      return via(spec, invalidValue, () => ({ kind: spec.rule, body: e.body }));
    case 'create-missing':
      return via(spec, missingField, () => ({ kind: spec.rule, body: e.body }));
    case 'create-accepted':
      return via(spec, createValid, () => e.pet as Parameters<typeof createValid.run>[0], {
        cost: 3,
        decided: created,
      });
    case 'create-int64':
      return via(spec, int64Field, () => ({ field: e.field, text: e.text }), { cost: 2, decided: created });
    case 'create-unknown-field':
      return via(spec, unknownFields, () => ({ pet: JSON.parse(e.body), body: e.body }));
    case 'create-null-optional':
      return {
        spec,
        check: nullOptional,
        cost: 1,
        async run(ctx) {
          const body = e.body.replace(/"categoryId":1(?=[,}])/, `"categoryId":${someCategory(ctx)}`);
          const exchange = await ctx.send(createRequest(ctx, body));
          ctx.observe(
            nullOptional,
            `${e.field}: null → ${exchange.response.status === 201 ? 'accepted (201)' : `refused (${exchange.response.status})`}`,
          );
          return undefined;
        },
      };
    case 'list-limit-outside':
      return via(spec, limitOutOfRangeCheck, () => (e.values.length === 1 ? e.values[0]! : e.values));
    case 'list-limit-inside':
      return via(spec, validQuery, () => ({ limit: e.limit, status: undefined }));
    case 'list-status-outside':
      return via(spec, unknownStatus, () => e.value);
    case 'get-bad-id':
      return via(spec, badId, () => e.id);
    case 'get-absent':
      // A 404 decides; the id belonging to a pet (created in this run, or answered 200 with it) is no test of §4.3's 404.
      return via(spec, absent, () => e.id, { decided: (statuses) => statuses.includes(404) });
    case 'credentials': {
      const op = OPS.find((o) => o === e.operationId);
      if (!op) throw new Error(`the contract's operation ${e.operationId} has no request builder in checks/auth.ts`);
      return via(spec, invalidCredentials, (ctx) => ({ op, credential: credentialOf(e.credential, ctx.apiKey) }));
    }
    case 'unspecified-endpoint':
      return {
        spec,
        check: unspecifiedEndpoints,
        cost: 1,
        async run(ctx) {
          const headers = {
            accept: 'application/json',
            'accept-encoding': 'identity',
            ...(e.withKey ? bearer(ctx) : {}),
          };
          const exchange = await ctx.send({ method: e.method, url: `${ctx.baseUrl}${e.path}`, headers });
          const { status, headers: h } = exchange.response;
          ctx.observe(
            unspecifiedEndpoints,
            `${e.method} ${e.path} ${e.withKey ? 'with' : 'without'} the key: ${status} ${h['content-type'] ?? '(no Content-Type)'}, ${hasRateHeaders(h)}`,
          );
          return undefined;
        },
      };
  }
}

let derived: readonly CoverageCase[] | undefined;
/**
 * Every coverage case, bound. Derived once, on first use: the contract does not change during a run,
 * and deriving asks the compiled schema (Ajv), which a command that runs no conformance never loads.
 */
export const coverageCases = (): readonly CoverageCase[] => (derived ??= deriveCases().map(bind));

/** Requests the whole phase can take: reserved in the budget plan before anything random. */
export const coverageCost = (): number => coverageCases().reduce((sum, c) => sum + c.cost, 0);

/**
 * The cases `--case` names: exact names, or a prefix ending in `*` (`NewPet.name:*`). An unknown name
 * is a usage error listing the nearest names.
 */
export function selectCases(patterns: readonly string[]): CoverageCase[] | { unknown: string; near: string[] } {
  const picked = new Set<CoverageCase>();
  for (const p of patterns) {
    const hits = coverageCases().filter((c) =>
      p.endsWith('*') ? c.spec.name.startsWith(p.slice(0, -1)) : c.spec.name === p,
    );
    if (!hits.length) {
      const stem = p.replace(/\*$/, '').split(':')[0]!;
      return {
        unknown: p,
        near: coverageCases()
          .map((c) => c.spec.name)
          .filter((n) => n.startsWith(stem))
          .slice(0, 8),
      };
    }
    for (const h of hits) picked.add(h);
  }
  return coverageCases().filter((c) => picked.has(c));
}
