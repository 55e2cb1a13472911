// §7 Errors, §2.5 the Error shape, §1 JSON bodies; and no 5xx, ever.
import { mediaType, type Exchange } from '../../core/exchange.ts';
import { isApiError } from '../../spec/validators.ts';
import { bodyOf, isObject } from './judge.ts';
import { fail, type Check } from './types.ts';

// §7: the body of a 429 is not shown; every other 4xx carries an Error.
const isErrorAnswer = (ex: Exchange): boolean =>
  ex.response.status >= 400 && ex.response.status < 500 && ex.response.status !== 429;
const JSON_TYPE = /^application\/([a-z0-9.+-]+\+)?json$/;

export const errorChecks: Check[] = [
  {
    kind: 'response',
    id: 'server.no-5xx',
    title: 'No request, valid or not, is answered with a 5xx',
    level: 'MUST',
    specRef: '§4, §7',
    applies: () => true,
    judge: (ex) =>
      ex.response.status >= 500
        ? fail(`answered ${ex.response.status}`, ex, { received: ex.response.body.slice(0, 500) })
        : undefined,
  },
  {
    kind: 'response',
    id: 'errors.shape',
    title: 'Every 4xx body is an Error (code, message, status) whose status is the HTTP status',
    level: 'MUST',
    specRef: '§2.5, §7',
    applies: isErrorAnswer,
    judge(ex) {
      const body = bodyOf(ex);
      if (!isApiError(body))
        return fail(`the ${ex.response.status} body is not an Error`, ex, { received: ex.response.body.slice(0, 500) });
      if (isObject(body) && body['status'] !== ex.response.status)
        return fail(`Error.status is ${body['status']} in a ${ex.response.status} response`, ex);
      return undefined;
    },
  },
  {
    kind: 'response',
    id: 'content-type.json',
    title: 'Bodies are JSON and labelled so (Content-Type application/json)',
    level: 'MUST',
    specRef: '§1',
    applies: (ex) =>
      (ex.response.status >= 200 && ex.response.status < 300 && ex.response.status !== 204) || isErrorAnswer(ex),
    judge(ex) {
      const type = mediaType(ex.response.headers);
      if (type === undefined || !JSON_TYPE.test(type))
        return fail(`Content-Type is ${JSON.stringify(ex.response.headers['content-type'] ?? null)}`, ex);
      if (bodyOf(ex) === undefined)
        return fail('the body is not JSON', ex, { received: ex.response.body.slice(0, 200) });
      return undefined;
    },
  },
  {
    kind: 'response',
    id: 'errors.application-json',
    title: 'Error bodies use application/json, the type §1 names (application/problem+json is also JSON)',
    level: 'SHOULD',
    specRef: '§1',
    applies: isErrorAnswer,
    judge: (ex) =>
      mediaType(ex.response.headers) === 'application/json'
        ? undefined
        : fail(`Content-Type is ${JSON.stringify(ex.response.headers['content-type'] ?? null)}`, ex),
  },
];
