// §4.2 Add an animal, §2.1/§2.2 the Pet and NewPet shapes.
import fc from 'fast-check';
import { isPet } from '../../spec/validators.ts';
import { createRequest, operationOf, usesValidKey, type RunContext } from '../context.ts';
import { CATEGORY_FIX, createValidPet, someCategory } from '../create-pet.ts';
import { echoProblems, idTextOf, integerTextOf } from '../json.ts';
import { extremeName } from '../arbitraries/names.ts';
import {
  invalidValueExamples,
  missingExamples,
  newPetInvalidValue,
  newPetMissing,
  newPetWithUnknownField,
  nonObjectBody,
  nonObjectExamples,
  validNewPet,
  validNewPetExamples,
  type InvalidBody,
} from '../arbitraries/new-pet.ts';
import { bodyOf, expectStatus, isObject } from './judge.ts';
import { int64Field, nullOptional } from './create-edges.ts';
import { categoryPolicy, namePolicy } from './policies.ts';
import {
  fail,
  observation,
  UNDECIDED,
  type Check,
  type Finding,
  type ResponseCheck,
  type RunVerdict,
  type ScenarioCheck,
  type SummaryCheck,
} from './types.ts';

/** Invalid bodies use category 1 as a placeholder; a server that knows only some categories gets one it knows. */
function withKnownCategory(ctx: RunContext, body: string): string {
  const category = someCategory(ctx);
  // Whatever the key's case: a body whose keys a server folds must be creatable there, or a 400 for the category hides the fold.
  return category === 1 ? body : body.replace(/"(categoryId)":1(?=[,}])/i, `"$1":${category}`);
}

function invalidBodyCheck(
  id: string,
  title: string,
  specRef: string,
  arbitrary: () => fc.Arbitrary<InvalidBody>,
  examples: () => InvalidBody[],
): ScenarioCheck<InvalidBody> {
  return {
    kind: 'scenario',
    id,
    title,
    level: 'MUST',
    specRef,
    weight: 2,
    cost: 1,
    arbitrary,
    examples,
    async run(input, ctx) {
      const exchange = await ctx.send(createRequest(ctx, withKnownCategory(ctx, input.body)));
      return expectStatus(exchange, [400], `POST /pets with an invalid body (${input.kind})`);
    },
  };
}

export const createValid: ScenarioCheck<import('../../spec/contract.ts').NewPet> = {
  kind: 'scenario',
  id: 'create.valid',
  title: 'A valid NewPet is created: 201 and a Pet echoing name, categoryId and status',
  level: 'MUST',
  specRef: '§4.2, §2.1',
  weight: 4,
  cost: 1.2,
  arbitrary: () => validNewPet(),
  examples: validNewPetExamples,
  undecided: { skip: 'every valid pet was refused and no category id is known to be accepted', fix: CATEGORY_FIX },
  async run(pet, ctx): Promise<RunVerdict> {
    const attempt = await createValidPet(ctx, pet);
    if (attempt.undecided) return UNDECIDED;
    const { exchange, sent } = attempt;
    const wrong = expectStatus(exchange, [201], 'POST /pets with a valid NewPet');
    if (wrong) return wrong;
    const body = bodyOf(exchange);
    if (!isPet(body))
      return fail('the 201 body is not a Pet (§2.1: id, name, categoryId integers/strings as specified)', exchange, {
        received: exchange.response.body,
      });
    const problems = echoProblems(sent, body as Record<string, unknown>);
    if (problems.length)
      return fail(`the created Pet does not echo the NewPet: ${problems.join('; ')}`, exchange, {
        expected: sent,
        received: body,
      });
    if (sent.status === undefined)
      ctx.observe(defaultStatus, `status when omitted: ${JSON.stringify(body.status ?? '(absent)')}`);
    return undefined;
  },
};

const extremeNames: ScenarioCheck<{ kind: string; name: string }> = {
  kind: 'scenario',
  id: 'create.extreme-names',
  title: 'Names the spec sets no limit on (empty, very long, control characters): what the server does',
  level: 'OBSERVE',
  specRef: '§2.6',
  weight: 1,
  cost: 1,
  arbitrary: () => extremeName(),
  async run(input, ctx) {
    const exchange = await ctx.send(
      createRequest(ctx, JSON.stringify({ name: input.name, categoryId: someCategory(ctx) })),
    );
    const body = bodyOf(exchange);
    const echoed = isObject(body) && body['name'] === input.name ? ', echoed exactly' : '';
    ctx.observe(
      extremeNames,
      `${input.kind}: ${exchange.response.status}${exchange.response.status === 201 ? echoed : ''}`,
    );
    return undefined;
  },
};

export const unknownFields: ScenarioCheck<{ pet: import('../../spec/contract.ts').NewPet; body: string }> = {
  kind: 'scenario',
  id: 'create.unknown-fields',
  title: 'Body fields NewPet does not define: ignored or refused',
  level: 'OBSERVE',
  specRef: '§2.2 (not shown)',
  weight: 0.5,
  cost: 1,
  arbitrary: () => newPetWithUnknownField(),
  async run(input, ctx) {
    const body = JSON.stringify({ ...(JSON.parse(input.body) as object), categoryId: someCategory(ctx) });
    const exchange = await ctx.send(createRequest(ctx, body));
    const status = exchange.response.status;
    ctx.observe(unknownFields, status === 201 ? 'accepted (201)' : `refused (${status})`);
    return undefined;
  },
};

/**
 * §4.2: a 201 carries an Animal (§2.1), whatever body was sent: also the answers to the coverage phase's
 * recorded bodies (`status: null`, unknown fields), which no scenario check reads. A server that takes
 * `status: null` as given and answers `"status": null` (not a PetStatus) is caught here, at every seed.
 */
const petAnswer: ResponseCheck = {
  kind: 'response',
  id: 'create.pet-answer',
  title: 'Every 201 to POST /pets carries a Pet (status, when present, one of PetStatus)',
  level: 'MUST',
  specRef: '§4.2, §2.1',
  applies: (ex, ctx) =>
    operationOf(ctx.baseUrl, ex.request) === 'createPet' &&
    usesValidKey(ex.request, ctx.apiKey) &&
    ex.response.status === 201,
  unseen: { skip: 'no POST /pets was answered 201', fix: CATEGORY_FIX },
  judge: (ex) =>
    isPet(bodyOf(ex))
      ? undefined
      : fail('the 201 body is not a Pet (§2.1)', ex, { received: ex.response.body.slice(0, 500) }),
};

/**
 * §4.2 rule 2 and §2.1: the id is assigned by the service, not sent. A body carrying one may be refused,
 * or the field ignored (GAPS.md: unknown fields) — but a pet created under the client's id is a server
 * that lets clients pick (or overwrite) ids. petcert sends CLIENT_ID, a value no service assigns by chance.
 */
const idAssigned: ResponseCheck = {
  kind: 'response',
  id: 'create.id-assigned',
  title: 'An id sent in the creation body is not taken: the service assigns the id',
  level: 'MUST',
  specRef: '§4.2 rule 2, §2.1',
  applies: (ex, ctx) => petAnswer.applies(ex, ctx) && integerTextOf(ex.request.body ?? '', 'id') !== undefined,
  // The coverage phase always sends a body with an id: when none was admitted (a server refusing
  // unknown fields, GAPS.md), no id could be taken, and the rule held without a case to judge.
  unseen: {
    skip: 'no creation body carrying an id was admitted (the server refuses it, as GAPS.md allows): no id could be taken',
    kind: 'not-applicable',
  },
  judge(ex) {
    const sent = integerTextOf(ex.request.body ?? '', 'id');
    return idTextOf(ex.response.body) === sent
      ? fail(
          `the pet was created under the id the client sent (${sent}): §4.2 rule 2 says the service assigns it`,
          ex,
          { received: sent },
        )
      : undefined;
  },
};

const uniqueIds: SummaryCheck = {
  kind: 'summary',
  id: 'create.unique-ids',
  title: 'Ids assigned by the service are unique',
  level: 'MUST',
  specRef: '§2.1, §4.2 rule 2',
  judge(ctx) {
    if (ctx.created.length < 2) return { skip: 'fewer than two pets were created', fix: CATEGORY_FIX };
    const seen = new Map<string, number>();
    const findings = [];
    for (const [i, c] of ctx.created.entries()) {
      const before = seen.get(c.idText);
      if (before !== undefined)
        findings.push(fail(`id ${c.idText} was assigned twice (creations #${before + 1} and #${i + 1})`, c.exchange));
      else seen.set(c.idText, i);
    }
    ctx.observe(uniqueIds, `${ctx.created.length} created, ${seen.size} distinct ids`);
    return findings.slice(0, 5);
  },
};

export const defaultStatus = observation('create.default-status', 'status of a pet created without one', '§2.6');

export const missingField = invalidBodyCheck(
  'create.missing-field',
  'A NewPet without name or categoryId is refused with 400',
  '§4.2 rule 1',
  newPetMissing,
  missingExamples,
);
export const invalidValue = invalidBodyCheck(
  'create.invalid-value',
  'Wrong types, non-integer or out-of-int64 categoryId, status outside PetStatus: 400',
  '§4.2, §2.2, §2.3',
  newPetInvalidValue,
  invalidValueExamples,
);

export const createChecks: Check[] = [
  createValid,
  petAnswer,
  idAssigned,
  missingField,
  invalidValue,
  invalidBodyCheck(
    'create.invalid-body',
    'A body that is not a JSON object, or not JSON: 400',
    '§4.2, §1',
    nonObjectBody,
    nonObjectExamples,
  ),
  int64Field,
  extremeNames,
  unknownFields,
  nullOptional,
  uniqueIds,
  defaultStatus,
  categoryPolicy,
  namePolicy,
];
