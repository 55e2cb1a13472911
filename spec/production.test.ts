import { describe, expect, it } from 'vitest';
import { ENVIRONMENTS } from './contract.ts';
import { isProductionTarget, productionRefused, refuseProduction } from './production.ts';

const production = ENVIRONMENTS.find((e) => e.environment === 'production')!.url;
const staging = ENVIRONMENTS.find((e) => e.environment === 'staging')!.url;

describe('isProductionTarget', () => {
  it('knows the contract’s production server, however it is spelled', () => {
    expect(isProductionTarget(production)).toBe(true);
    expect(isProductionTarget(`${production}/`)).toBe(true);
    expect(isProductionTarget(production.toUpperCase().replace('/V1', '/v1'))).toBe(true);
    expect(isProductionTarget(production.replace(/^https:\/\/([^/]+)/, 'https://$1:443'))).toBe(true);
  });
  it('does not mistake staging or loopback for production', () => {
    expect(isProductionTarget(staging)).toBe(false);
    expect(isProductionTarget('http://127.0.0.1:8080/v1')).toBe(false);
  });
  it('believes the caller who says the target is production', () => {
    expect(isProductionTarget('http://127.0.0.1:8080/v1', { production: true })).toBe(true);
  });
});

describe('productionRefused / refuseProduction: the one rule every command applies', () => {
  it('refuses production, the contract’s or marked so, unless allowed', () => {
    expect(productionRefused(production)).toBe(true);
    expect(productionRefused('http://127.0.0.1:8080/v1', { production: true })).toBe(true);
    expect(productionRefused(production, { allowProduction: true })).toBe(false);
    expect(productionRefused(staging)).toBe(false);
  });
  it('as a usage error naming what the run would spend and the flag', () => {
    expect(() => refuseProduction(production, {}, 'quota probes spend real quota')).toThrow(
      `--base-url: ${production} is a production target: quota probes spend real quota; pass --allow-production to run anyway`,
    );
    expect(() => refuseProduction(staging, {}, 'anything')).not.toThrow();
  });
});
