// The one table of checks: id → title, level, spec section, function. The id is the report label,
// the junit testcase name and the key of the fault table in the tests.
import { authChecks } from './checks/auth.ts';
import { createChecks } from './checks/create.ts';
import { unspecifiedEndpoints } from './checks/endpoints.ts';
import { errorChecks } from './checks/errors.ts';
import { getChecks } from './checks/get.ts';
import { listChecks } from './checks/list.ts';
import { ratelimitChecks } from './checks/ratelimit.ts';
import { draftAgrees, draftFields } from './checks/ratelimit-draft.ts';
import { limitOfPlan } from './checks/ratelimit-plan.ts';
import type { Check, ResponseCheck, ScenarioCheck, SummaryCheck } from './checks/types.ts';

export const CHECKS: readonly Check[] = [
  ...authChecks,
  ...createChecks,
  ...listChecks,
  ...getChecks,
  unspecifiedEndpoints,
  ...errorChecks,
  ...ratelimitChecks,
  limitOfPlan,
  draftFields,
  draftAgrees,
];

export const responseChecks = (): ResponseCheck[] => CHECKS.filter((c): c is ResponseCheck => c.kind === 'response');
export const scenarioChecks = (): ScenarioCheck[] => CHECKS.filter((c): c is ScenarioCheck => c.kind === 'scenario');
export const summaryChecks = (): SummaryCheck[] => CHECKS.filter((c): c is SummaryCheck => c.kind === 'summary');
