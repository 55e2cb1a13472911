// The order of a run: preflight (is this an Animal Store API? which categories exist?), the create
// check, a population of pets big enough to see list-size violations, the coverage phase (every case
// derived from the contract, once, whatever the seed and budget: coverage/), then every other scenario
// check concurrently (order does not matter to them), then the summary checks. Response checks judge
// every exchange of the contract's operations on the way (what §4.4's unspecified endpoints answer is
// only recorded). Stops early — with a reason — on a dead target, endless 429s or the run timeout.
import type { Clock } from '../../core/clock.ts';
import { AbortRunError, TransportError, UnreachableError } from '../../core/errors.ts';
import type { Exchange, Send } from '../../core/exchange.ts';
import type { ProgressSink } from '../../core/progress.ts';
import type { AbortCode } from '../../report/model.ts';
import { PET_STATUSES, type PetStatus } from '../../spec/contract.ts';
import type { Plan } from '../../spec/plans.ts';
import { isPets } from '../../spec/validators.ts';
import { INT64_FIX, int64Undecided, int64Field } from '../checks/create-edges.ts';
import { draftAgrees } from '../checks/ratelimit-draft.ts';
import { limitOfPlan, NO_PLAN } from '../checks/ratelimit-plan.ts';
import type { ScenarioCheck, Skip } from '../checks/types.ts';
import { coverageCases, NEEDS_PETS, type CoverageCase } from '../coverage/cases.ts';
import { createAttributions, runCoverage } from '../coverage/run.ts';
import { listRequest, operationOf, usesValidKey, type RunContext } from '../context.ts';
import { createValidPet, rememberCategory } from '../create-pet.ts';
import { idTextOf, jsonOf } from '../json.ts';
import { CHECKS, responseChecks, scenarioChecks, summaryChecks } from '../registry.ts';
import { createLedger, type Ledger } from '../../report/ledger.ts';
import { judgeExchange } from './book.ts';
import { budgetCovering, planBudget, POPULATION_TARGET } from './budget.ts';
import { runScenario } from './property.ts';
import { checkSeed } from './seed.ts';
import { createRunnerSend, DEFAULT_RUNNER } from './transport.ts';

export interface SuiteOptions {
  baseUrl: string;
  apiKey: string;
  send: Send;
  clock: Clock;
  seed: number;
  budget: number;
  maxRuns: number;
  categoryId?: number;
  concurrency?: number;
  deadline: number;
  progress: ProgressSink;
  resetHorizonSeconds: number;
  minuteSeconds?: number;
  max429?: number;
  maxWaitMs?: number;
  backoffBaseMs?: number;
  /** The key's plan: X-RateLimit-Limit is judged against its figures (without it, that check is skipped). */
  plan?: Plan;
  /** Replay only these coverage cases (`--case`): no random exploration. */
  only?: readonly CoverageCase[];
}

export interface SuiteResult {
  ledger: Ledger;
  ctx: RunContext;
  requests: number;
  aborted?: { code: AbortCode; message: string };
}

function registerCreated(ctx: RunContext, ex: Exchange): void {
  if (
    ex.response.status !== 201 ||
    operationOf(ctx.baseUrl, ex.request) !== 'createPet' ||
    !usesValidKey(ex.request, ctx.apiKey)
  )
    return;
  const idText = idTextOf(ex.response.body);
  const body = jsonOf(ex.response.body);
  if (idText !== undefined && typeof body === 'object' && body !== null)
    ctx.created.push({ idText, pet: body as RunContext['created'][number]['pet'], exchange: ex });
}

function abortOf(error: unknown): SuiteResult['aborted'] {
  if (error instanceof UnreachableError || error instanceof TransportError)
    return { code: 'UNREACHABLE', message: error.message };
  if (
    error instanceof AbortRunError &&
    (error.reason === 'RATE_LIMITED' || error.reason === 'RUN_TIMEOUT' || error.reason === 'INTERRUPTED')
  )
    return { code: error.reason, message: error.message };
  if (error instanceof AbortRunError) return { code: 'UNREACHABLE', message: error.message };
  return undefined;
}

async function preflight(ctx: RunContext): Promise<string | undefined> {
  let exchange: Exchange | undefined;
  for (let attempt = 0; !exchange; attempt += 1) {
    try {
      exchange = await ctx.send(listRequest(ctx, 'limit=100'));
    } catch (error) {
      if (!(error instanceof TransportError) || attempt >= 5) throw error;
    }
  }
  const { status, headers } = exchange.response;
  const json = jsonOf(exchange.response.body);
  if ((status >= 300 && status < 400) || (json === undefined && [404, 405].includes(status))) {
    throw new UnreachableError(
      `GET ${exchange.request.url} answered ${status} ${headers['content-type'] ?? ''}: no Animal Store API at this base URL (it must end in /v1)`,
    );
  }
  if (status === 401 || status === 403) return `the API key was refused (${status}); check --api-key`;
  if (isPets(json) && ctx.categories.fixed === undefined) {
    for (const pet of json) if (Number.isSafeInteger(pet.categoryId)) rememberCategory(ctx, pet.categoryId);
  }
  return undefined;
}

/** Tops our own pets up to ≥ 101 in total and ≥ 21 per status (see budget.ts). */
async function populate(ctx: RunContext, allowance: number, concurrency: number): Promise<void> {
  const count = (s: PetStatus) => ctx.created.filter((c) => c.pet['status'] === s).length;
  const plan: PetStatus[] = [];
  const counts = new Map(PET_STATUSES.map((s) => [s, count(s)]));
  let total = ctx.created.length;
  while (
    plan.length < allowance &&
    (total < POPULATION_TARGET.total || [...counts.values()].some((n) => n < POPULATION_TARGET.perStatus))
  ) {
    const status = [...counts.entries()].sort((a, b) => a[1] - b[1])[0]![0];
    counts.set(status, counts.get(status)! + 1);
    plan.push(status);
    total += 1;
  }
  // The allowance counts requests, not pets: a refused pet is re-sent (create-pet.ts), and the
  // coverage phase after this one must still find its reserve in the budget.
  let requests = 0;
  const scoped: RunContext = { ...ctx, send: (request) => ((requests += 1), ctx.send(request)) };
  await pool([...plan.keys()], concurrency, async (i) => {
    if (requests >= allowance) return;
    const categoryId = Number(ctx.categories.known[i % Math.max(1, ctx.categories.known.length)] ?? 1);
    try {
      await createValidPet(scoped, { name: `petcert-population-${i}`, categoryId, status: plan[i]! });
    } catch (error) {
      // One lost request (e.g. a keep-alive connection closed under a POST) is not a dead target; the
      // guard turns consecutive failures into UnreachableError, which still ends the run. A spent
      // budget (429s waited out cost requests too) ends the population, not the run.
      if (error instanceof AbortRunError && error.reason === 'BUDGET') requests = allowance;
      else if (!(error instanceof TransportError)) throw error;
    }
  });
}

export async function runSuite(o: SuiteOptions): Promise<SuiteResult> {
  const ledger = createLedger();
  const responses = responseChecks();
  const ctx: RunContext = {
    baseUrl: o.baseUrl,
    apiKey: o.apiKey,
    send: o.send,
    created: [],
    categories: {
      known: o.categoryId === undefined ? [] : [String(o.categoryId)],
      rejected: [],
      ...(o.categoryId === undefined ? {} : { fixed: o.categoryId }),
    },
    resetHorizonSeconds: o.resetHorizonSeconds,
    ...(o.minuteSeconds !== undefined ? { minuteSeconds: o.minuteSeconds } : {}),
    ...(o.plan ? { plan: o.plan } : {}),
    observe: (check, label) => ledger.count(check, label),
    sleep: (ms) => o.clock.sleep(ms),
  };
  // The rule binds every key (its Limit is one of its plan's figures): without the plan it is not judged.
  if (!o.plan) ledger.skip(limitOfPlan, NO_PLAN, { fix: "give the key's plan: --key PLAN=KEY (or --plan NAME)" });
  ledger.skip(
    draftAgrees,
    'the target sent neither RateLimit nor RateLimit-Policy (kept only while no response carried them)',
    { kind: 'not-applicable' },
  );
  const concurrency = o.concurrency ?? DEFAULT_RUNNER.concurrency;
  const attributions = createAttributions();
  const scenarios = scenarioChecks();
  const plan = planBudget(o.budget, scenarios, o.maxRuns);
  const budgetFix = () => `raise --budget to ${Math.max(o.budget + 1, budgetCovering(scenarios, o.maxRuns))}`;
  // What runs before the coverage phase may not eat its reserve: shares count requests as checks send
  // them, but a 429 waited out and retried costs the budget too; the runner counts every attempt.
  let reserved = 0;
  const runner = createRunnerSend(o.send, {
    reserved: () => reserved,
    clock: o.clock,
    deadline: o.deadline,
    budget: o.budget,
    concurrency,
    max429: o.max429 ?? DEFAULT_RUNNER.max429,
    maxWaitMs: o.maxWaitMs ?? DEFAULT_RUNNER.maxWaitMs,
    backoffBaseMs: o.backoffBaseMs ?? DEFAULT_RUNNER.backoffBaseMs,
    backoffCapMs: DEFAULT_RUNNER.backoffCapMs,
    steers: (request) => usesValidKey(request, o.apiKey),
    observe: (exchange) => {
      registerCreated(ctx, exchange);
      if (operationOf(ctx.baseUrl, exchange.request) !== 'other')
        judgeExchange(ledger, responses, exchange, ctx, attributions.of(exchange.request));
    },
  });
  ctx.send = runner.send;

  let done = 0;
  const runOne = async (check: ScenarioCheck): Promise<void> => {
    const entry = ledger.entry(check);
    const { runs, share } = plan.checks[check.id]!;
    const skip =
      check.skipIf?.(ctx) ??
      (runs < 1 ? { skip: 'the budget leaves no run for this check', fix: budgetFix() } : undefined);
    if (skip) ledger.skip(check, skip.skip, skip);
    else {
      const seed = checkSeed(o.seed, check.id);
      const outcome = await runScenario(check, ctx, { seed, numRuns: runs, share: Math.ceil(share) });
      Object.assign(entry.info, {
        seed,
        runs: outcome.runs,
        requests: outcome.requests,
        ...(outcome.transportErrors ? { transportErrors: outcome.transportErrors } : {}),
      });
      entry.applied += outcome.judged;
      // Runs after its share was spent pass without sending, and a run whose answers decided nothing
      // (UNDECIDED) passes without judging: a check that judged no input is not a pass.
      if (outcome.judged === 0 && !outcome.failure) {
        const why = unjudgedScenario(check, outcome.undecided, budgetFix());
        ledger.skip(check, why.skip, why);
      }
      if (outcome.failure) {
        const f = outcome.failure;
        ledger.fail(check, {
          ...f.finding,
          message: `${f.finding.message} (shrunk counterexample; this check's seed ${seed})`,
          counterexample: { input: f.counterexample, seed, path: f.path, shrinks: f.shrinks },
        });
      }
      if (outcome.stop) throw outcome.stop;
    }
    done += 1;
    o.progress({ phase: 'conform', done, total: scenarios.length, message: check.id });
  };

  const coverage = { concurrency, progress: o.progress, pool, attributions };
  let aborted: SuiteResult['aborted'];
  try {
    const refused = await preflight(ctx);
    if (refused) {
      for (const c of scenarios)
        ledger.skip(c, refused, { fix: 'give a key the server accepts (--api-key or --key PLAN=KEY)' });
    } else if (o.only) {
      if (o.only.some((c) => NEEDS_PETS.includes(c.spec.family))) await populate(ctx, plan.population, concurrency);
      await runCoverage(o.only, ctx, ledger, coverage);
      const reason = `not run: only the coverage case(s) ${o.only.map((c) => c.spec.name).join(', ')} were replayed (--case)`;
      // Kept only by checks the cases did not reach: a replay judges its cases, not the service.
      for (const c of CHECKS) ledger.skip(c, reason, { fix: 'run without --case to judge every check' });
    } else {
      reserved = plan.coverage;
      const first = scenarios.filter((c) => c.id === 'create.valid');
      for (const c of first) await runOne(c);
      o.progress({ phase: 'conform: population', done: 0, message: 'creating pets for the list checks' });
      await populate(ctx, plan.population, concurrency);
      reserved = 0;
      await runCoverage(coverageCases(), ctx, ledger, coverage);
      await pool(
        scenarios.filter((c) => !first.includes(c)),
        concurrency,
        runOne,
      );
    }
  } catch (error) {
    aborted = abortOf(error);
    if (!aborted) throw error;
  }
  // A MUST check whose every input was refused for a reason a gap allows decided nothing: a skip, not a pass.
  const int64 = ledger.entry(int64Field);
  const undecided = int64Undecided(int64);
  if (undecided) Object.assign(int64, { skipReason: undecided, skipKind: 'unjudged', fix: INT64_FIX });
  for (const check of summaryChecks()) {
    const verdict = check.judge(ctx);
    if (verdict && 'skip' in verdict) ledger.skip(check, verdict.skip, verdict);
    else for (const finding of verdict ?? []) ledger.fail(check, finding);
  }
  return { ledger, ctx, requests: runner.requests(), ...(aborted ? { aborted } : {}) };
}

/** Why a scenario check that judged no input is unjudged: its runs decided nothing, or its share ran out first. */
function unjudgedScenario(check: ScenarioCheck, undecided: number, budgetFix: string): Skip {
  if (undecided > 0) {
    const why = check.undecided ?? { skip: 'their answers could not decide the rule' };
    return { ...why, skip: `${undecided} run(s), none decided: ${why.skip}` };
  }
  return {
    skip: 'its share of the budget was spent before its first input was judged (429s waited out and retries cost requests too)',
    fix: budgetFix,
  };
}

/** Runs tasks with at most `n` at a time; the first error stops new starts and is rethrown after the others settle. */
async function pool<T>(items: readonly T[], n: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: unknown;
  const worker = async () => {
    while (next < items.length && failure === undefined) {
      const item = items[next++]!;
      try {
        await task(item);
      } catch (error) {
        failure ??= error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, worker));
  if (failure !== undefined) throw failure;
}
