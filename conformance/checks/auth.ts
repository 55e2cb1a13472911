// §5 Authentication: every operation needs `Authorization: Bearer <API_KEY>`; anything else is 401.
import fc from 'fast-check';
import type { HttpRequest } from '../../core/exchange.ts';
import {
  invalidCredential,
  invalidCredentialExamples,
  schemeCaseVariant,
  type Credential,
} from '../arbitraries/credentials.ts';
import { newPetInvalidValue, nonObjectBody } from '../arbitraries/new-pet.ts';
import { createRequest, getRequest, listRequest, usesValidKey, type RunContext } from '../context.ts';
import { expectStatus } from './judge.ts';
import { fail, type Check, type ScenarioCheck } from './types.ts';

export type Op = 'listPets' | 'createPet' | 'getPet';
export const OPS: readonly Op[] = ['listPets', 'createPet', 'getPet'];

function requestFor(ctx: RunContext, op: Op, credential: Credential, body?: string): HttpRequest {
  const headers: Record<string, string> = credential.header === undefined ? {} : { authorization: credential.header };
  if (op === 'listPets') return listRequest(ctx, '', headers);
  if (op === 'getPet') return getRequest(ctx, ctx.created[0]?.idText ?? '1', headers);
  return createRequest(ctx, body ?? JSON.stringify({ name: 'petcert-auth', categoryId: 1 }), headers);
}

function expect401(status: number) {
  return status === 403 ? ' (403 is for a known key lacking permission; §5 says 401 for a missing or invalid key)' : '';
}

export const invalidCredentials: ScenarioCheck<{ op: Op; credential: Credential }> = {
  kind: 'scenario',
  id: 'auth.invalid-credentials',
  title: 'Missing, non-Bearer, empty, malformed or unknown credentials: 401 on every operation',
  level: 'MUST',
  specRef: '§5, §7',
  weight: 3,
  cost: 1,
  arbitrary: (ctx) => fc.record({ op: fc.constantFrom(...OPS), credential: invalidCredential(ctx.apiKey) }),
  // Each common mistake once, spread over the three operations.
  examples: (ctx) =>
    invalidCredentialExamples(ctx.apiKey).map((credential, i) => ({ op: OPS[i % OPS.length]!, credential })),
  async run({ op, credential }, ctx) {
    const exchange = await ctx.send(requestFor(ctx, op, credential));
    const wrong = expectStatus(exchange, [401], `${op} with ${credential.kind} credentials`);
    return wrong && { ...wrong, message: wrong.message + expect401(exchange.response.status) };
  },
};

export const authChecks: Check[] = [
  invalidCredentials,
  {
    kind: 'scenario',
    id: 'auth.before-validation',
    title: 'An invalid key with an invalid body is still 401',
    level: 'MUST',
    specRef: '§5',
    weight: 1,
    cost: 1,
    arbitrary: (ctx) =>
      fc.record({ credential: invalidCredential(ctx.apiKey), body: fc.oneof(newPetInvalidValue(), nonObjectBody()) }),
    async run({ credential, body }, ctx) {
      const exchange = await ctx.send(requestFor(ctx, 'createPet', credential, body.body));
      return expectStatus(
        exchange,
        [401],
        `POST /pets with ${credential.kind} credentials and an invalid body (${body.kind})`,
      );
    },
  },
  {
    kind: 'response',
    id: 'auth.valid-key-accepted',
    title: 'The valid key is never answered 401 or 403',
    level: 'MUST',
    specRef: '§5',
    applies: (ex, ctx) => usesValidKey(ex.request, ctx.apiKey),
    judge: (ex) =>
      [401, 403].includes(ex.response.status)
        ? fail(`the valid key was answered ${ex.response.status}`, ex)
        : undefined,
  },
  {
    kind: 'scenario',
    id: 'auth.scheme-case-insensitive',
    title: 'The scheme name is matched case-insensitively ("bearer", "BEARER")',
    level: 'SHOULD',
    specRef: 'RFC 9110 §11.1',
    weight: 0.5,
    cost: 1,
    arbitrary: (ctx) =>
      fc.record({ op: fc.constantFrom<Op>('listPets', 'getPet'), credential: schemeCaseVariant(ctx.apiKey) }),
    async run({ op, credential }, ctx) {
      const exchange = await ctx.send(requestFor(ctx, op, credential));
      return exchange.response.status === 401
        ? fail(`${credential.header?.split(' ')[0]} <valid key> was refused`, exchange)
        : undefined;
    },
  },
  {
    kind: 'response',
    id: 'auth.www-authenticate',
    title: 'A 401 carries WWW-Authenticate with the Bearer scheme',
    level: 'SHOULD',
    specRef: 'RFC 9110 §11.6.1, RFC 6750 §3',
    applies: (ex) => ex.response.status === 401,
    judge: (ex) =>
      /^\s*bearer\b/i.test(ex.response.headers['www-authenticate'] ?? '')
        ? undefined
        : fail(`WWW-Authenticate is ${JSON.stringify(ex.response.headers['www-authenticate'] ?? null)}`, ex),
  },
];
