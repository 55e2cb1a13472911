// RFC 9112 §3.2: the request-target forms. A server MUST accept the absolute-form
// (`GET http://host/v1/pets`, what clients send to proxies) as well as the usual origin-form
// (`GET /v1/pets`); the app routes on the origin-form only.
const ABSOLUTE_FORM = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i;

/** The origin-form (path and query) of a request-target; other forms are returned unchanged. */
export function originForm(target: string): string {
  const authority = ABSOLUTE_FORM.exec(target);
  if (!authority) return target;
  const rest = target.slice(authority[0].length);
  return rest.startsWith('/') ? rest : `/${rest}`;
}
