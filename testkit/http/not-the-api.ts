// Loopback services that are NOT the Animal Store where a newcomer points petcert (docs/decisions/003): a
// reverse proxy that serves the reference server under a path prefix, a static file server, another
// JSON API (a classic "petstore" of another shape), and a server that redirects elsewhere.
import { request as httpRequest } from 'node:http';
import { httpServer, type HostileServer } from './hostile.ts';

/** Like nginx in front of an app: `prefix`/… goes to the server on `port` (prefix stripped); anything else is nginx's 404 page. */
export function prefixProxy(port: number, prefix = '/api'): Promise<HostileServer> {
  return httpServer((req, res) => {
    const url = req.url ?? '/';
    if (!url.startsWith(`${prefix}/`)) {
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end(
        '<html><head><title>404 Not Found</title></head><body><center><h1>404 Not Found</h1></center><hr><center>nginx</center></body></html>',
      );
      return;
    }
    const upstream = httpRequest(
      { host: '127.0.0.1', port, method: req.method, path: url.slice(prefix.length), headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
}

/** `python3 -m http.server`: an index page at /, a 404 page for other paths, 501 for POST. */
export function staticFiles(): Promise<HostileServer> {
  return httpServer((req, res) => {
    const page = (status: number, title: string) => {
      res.writeHead(status, { 'content-type': 'text/html;charset=utf-8' });
      res.end(`<!DOCTYPE HTML><html><head><title>${title}</title></head><body><h1>${title}</h1></body></html>`);
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') return page(501, 'Error response: Unsupported method');
    return req.url === '/' ? page(200, 'Directory listing for /') : page(404, 'Error response: File not found');
  });
}

/** Another JSON API under /v1: open (no auth), pets of another shape ({id, name, tag}), 422 for a pet without a name. */
export function otherJsonApi(): Promise<HostileServer> {
  return httpServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (path === '/v1/pets' && req.method === 'GET') return send(200, [{ id: 1, name: 'Rex', tag: 'dog' }]);
    if (path === '/v1/pets' && req.method === 'POST') return send(422, { code: 422, message: 'name is required' });
    return send(404, { error: 'not found' });
  });
}

/** Moved: every request is redirected (308) to the same path under `to` (an origin). */
export function redirectTo(to: string): Promise<HostileServer> {
  return httpServer((req, res) => {
    res.writeHead(308, { location: `${to}${req.url ?? '/'}`, 'content-length': '0' });
    res.end();
  });
}
