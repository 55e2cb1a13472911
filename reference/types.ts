// The in-process shape of the reference server: a request handler tests can call without a socket.
export interface AppRequest {
  method: string;
  /** Path and query as on the wire, e.g. "/v1/pets?limit=5". */
  path: string;
  /** Lower-case names. */
  headers: Record<string, string>;
  body: Buffer | string;
  /** Set by the socket adapter when the body exceeded the cap and was not read whole (→ 413). */
  oversize?: boolean;
}

export interface AppResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export type Handle = (req: AppRequest) => Promise<AppResponse>;
