// Principle 4: quotas are real money. A target is production when its URL is one of the contract's
// production servers (spec/openapi.yaml `servers`, x-petcert-environment) or the caller says it is.
import { ENVIRONMENTS } from './contract.ts';

/** Lower-case origin + path without trailing slashes; undefined for what is not an http(s) URL. */
function normalize(url: string): string | undefined {
  const m = /^(https?):\/\/([^/?#]+)([^?#]*)/i.exec(url.trim());
  if (!m) return undefined;
  const host = m[2]!.toLowerCase().replace(/:(443|80)$/, '');
  return `${m[1]!.toLowerCase()}://${host}${m[3]!.replace(/\/+$/, '')}`;
}

export function isProductionTarget(baseUrl: string, options: { production?: boolean } = {}): boolean {
  if (options.production === true) return true;
  const target = normalize(baseUrl);
  if (target === undefined) return false;
  return ENVIRONMENTS.some((env) => env.environment === 'production' && normalize(env.url) === target);
}
