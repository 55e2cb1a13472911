// The Animal Store as an Express 5 team builds it: Bearer auth, then the team's rate limiter (one of the
// libraries beside this file), then the three operations. The operations and the store are the reference
// server's (reference/routes.ts, called without its limiter), so a verdict here is about the limiter and
// its headers only. Windows, plans and keys come from a spec/plans.ts table; windows are compressed in
// tests (e.g. 2 s "minutes"). A test kit: no product code imports it.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type ErrorRequestHandler, type Express, type RequestHandler, type Response } from 'express';
import { RATE_LIMIT_HEADERS } from '../../spec/contract.ts';
import type { Plan, PlanTable } from '../../spec/plans.ts';
import { bearerToken } from '../../reference/auth.ts';
import { anonymousPlan, resolveKeys } from '../../reference/keys.ts';
import { errorResponse, type ErrorStatus } from '../../reference/responses.ts';
import { BASE_PATH, deprecationHeaders, route, type RouteContext } from '../../reference/routes.ts';
import { createStore } from '../../reference/store.ts';
import { resolveVariants } from '../../reference/variants.ts';
import type { AppResponse } from '../../reference/types.ts';

export interface ServiceOptions {
  plans: PlanTable;
  /** API key → plan name. */
  keys: Record<string, string>;
}

export interface RunningService {
  /** http://127.0.0.1:PORT/v1 */
  baseUrl: string;
  keys: Record<string, string>;
  close(): Promise<void>;
}

/** What the auth middleware leaves for the limiters: the caller's key and plan. */
export interface Caller {
  key: string;
  plan: Plan;
}

export const callerOf = (res: Response): Caller => res.locals.caller as Caller;

export const windowMs = (plans: PlanTable, kind: 'minute' | 'day'): number =>
  (kind === 'minute' ? plans.windows.minuteSeconds : plans.windows.daySeconds) * 1000;

export function send(res: Response, answer: AppResponse): void {
  res.status(answer.status).set(answer.headers).send(answer.body);
}

export function sendError(
  res: Response,
  status: ErrorStatus,
  message: string,
  headers: Record<string, string> = {},
): void {
  send(res, errorResponse(status, message, undefined, headers));
}

/**
 * §5: no valid key → 401 before any limiter (an unknown caller has no quota to count against). §8.2 wants
 * the headers on every response: like the reference, the free plan's untouched minute window.
 */
function bearerAuth(options: ServiceOptions): RequestHandler {
  const plans = resolveKeys(options.plans, options.keys);
  const anonymous = anonymousPlan(options.plans);
  return (req, res, next) => {
    const key = bearerToken(req.headers.authorization);
    const plan = key === undefined ? undefined : plans.get(key);
    if (key !== undefined && plan !== undefined) {
      res.locals.caller = { key, plan } satisfies Caller;
      return next();
    }
    const reset = Math.ceil((Date.now() + windowMs(options.plans, 'minute')) / 1000);
    sendError(res, 401, key === undefined ? 'missing API key' : 'invalid API key', {
      'www-authenticate': 'Bearer',
      [RATE_LIMIT_HEADERS.limit]: String(anonymous.perMinute),
      [RATE_LIMIT_HEADERS.remaining]: String(anonymous.perMinute),
      [RATE_LIMIT_HEADERS.reset]: String(reset),
    });
  };
}

/** The three operations (reference/routes.ts) on the raw body; 404/405 as the reference answers them. */
function operations(): RequestHandler {
  const ctx: RouteContext = {
    store: createStore(),
    variants: resolveVariants(),
    deprecationHeaders: deprecationHeaders(),
  };
  return (req, res) => {
    const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers[name] = value;
    send(res, route(ctx, { method: req.method, path: req.originalUrl, headers, body }));
  };
}

/** Body parser refusals (413) and bugs still answer an Error body; the limiter's headers stay on. */
const errors: ErrorRequestHandler = (error: { status?: number }, _req, res, _next) => {
  if (error.status === 413) return sendError(res, 413, 'request body too large');
  console.error(`limiter service: ${String(error)}`);
  sendError(res, 500, 'internal error');
};

/** auth → `limiters` (in order) → body → operations. */
export function storeApp(options: ServiceOptions, limiters: RequestHandler[]): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(bearerAuth(options), ...limiters);
  app.use(express.raw({ type: () => true, limit: 64 * 1024 }));
  app.use(operations());
  app.use(errors);
  return app;
}

/** Listens on 127.0.0.1, a free port. */
export function serveApp(app: Express, keys: Record<string, string>): Promise<RunningService> {
  return new Promise((resolve, reject) => {
    const server: Server = app.listen(0, '127.0.0.1', (error?: Error) => {
      if (error) return reject(error);
      const { port } = server.address() as AddressInfo;
      resolve({
        baseUrl: `http://127.0.0.1:${port}${BASE_PATH}`,
        keys: { ...keys },
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}
