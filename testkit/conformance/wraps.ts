// Building blocks of the proof tests' wrapped servers: a wrapper sees the reference handler and one
// request (its path already stripped of the /<name> routing prefix) and returns an answer.
import { isSafeNumber, LosslessNumber, parse as parseLossless, stringify as stringifyLossless } from 'lossless-json';
import type { AppRequest, AppResponse, Handle } from '../../reference/index.ts';

export type Fault = (handle: Handle, req: AppRequest) => Promise<AppResponse>;

// Integers beyond 2^53 pass through a wrap exactly (a wrap that rounded them would be a fault the
// server does not have); numbers a double holds exactly stay plain numbers for the wraps' arithmetic.
const readNumber = (text: string): number | LosslessNumber =>
  isSafeNumber(text) ? Number(text) : new LosslessNumber(text);

export const json = (v: unknown): string => stringifyLossless(v) ?? 'null';
export const parse = (text: string): any => {
  try {
    return parseLossless(text, null, readNumber);
  } catch {
    return undefined;
  }
};
export const pathOf = (req: AppRequest) => req.path.split('?')[0]!;
export const query = (req: AppRequest) => new URLSearchParams(req.path.split('?')[1] ?? '');
export const withQuery = (req: AppRequest, q: URLSearchParams): AppRequest => ({
  ...req,
  path: `${pathOf(req)}${q.size ? `?${q}` : ''}`,
});
export const isList = (req: AppRequest) => req.method === 'GET' && pathOf(req) === '/v1/pets';
export const isCreate = (req: AppRequest) => req.method === 'POST' && pathOf(req) === '/v1/pets';
export const isGet = (req: AppRequest) => req.method === 'GET' && /^\/v1\/pets\/[^/]+$/.test(pathOf(req));
export const bodyText = (req: AppRequest) => (typeof req.body === 'string' ? req.body : req.body.toString('utf8'));
export const error = (res: AppResponse, status: number, extra: Record<string, string> = {}): AppResponse => ({
  status,
  headers: { ...res.headers, 'content-type': 'application/json', ...extra },
  body: json({ code: 'ERROR', message: 'fault', status }),
});
/** The body mapped as JSON; a body that is not JSON is left as it is. */
export const mapBody = (res: AppResponse, f: (v: any) => unknown): AppResponse => {
  const v = parse(res.body);
  return v === undefined ? res : { ...res, body: json(f(v)) };
};
export const mapHeader = (res: AppResponse, name: string, f: (v: string) => string | undefined): AppResponse => {
  const headers = { ...res.headers };
  const v = f(headers[name] ?? '');
  if (v === undefined) delete headers[name];
  else headers[name] = v;
  return { ...res, headers };
};
export const mapRequestBody = (req: AppRequest, f: (v: any) => unknown): AppRequest => {
  const v = parse(bodyText(req));
  return v === undefined ? req : { ...req, body: json(f(v)) };
};
