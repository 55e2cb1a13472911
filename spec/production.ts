// Principle 4: quotas are real money. A target is production when its URL is one of the contract's
// production servers (spec/openapi.yaml `servers`, x-petcert-environment) or the caller says it is.
import { ConfigError } from '../core/errors.ts';
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

export interface ProductionConsent {
  /** The config marks the target production. */
  production?: boolean | undefined;
  /** --allow-production. */
  allowProduction?: boolean | undefined;
}

/** The one rule: a run that spends real quota (quota probes, capacity) goes to production only when allowed. */
export function productionRefused(baseUrl: string, o: ProductionConsent = {}): boolean {
  return isProductionTarget(baseUrl, { production: o.production === true }) && o.allowProduction !== true;
}

/** The refusal as every command gives it, before any request (exit 2): what the run would spend, and the flag. */
export function refuseProduction(baseUrl: string, o: ProductionConsent, spends: string): void {
  if (productionRefused(baseUrl, o))
    throw new ConfigError(
      `${baseUrl} is a production target: ${spends}; pass --allow-production to run anyway`,
      '--base-url',
    );
}
