// The shipped examples must work as documented: the config parses and resolves, the workflow is valid
// YAML that runs conform with the key from a secret and uploads reports/ whatever the outcome.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { loadConfig, resolveTarget } from './config-file.ts';
import { pickTarget } from './config.ts';

const file = (path: string) => fileURLToPath(new URL(`../${path}`, import.meta.url));

describe('examples/', () => {
  test('petcert.config.example.json: every target resolves with its environment variables set', () => {
    const loaded = loadConfig(file('examples/petcert.config.example.json'))!;
    const env = {
      PETCERT_STAGING_FREE_KEY: 'a1',
      PETCERT_STAGING_PRO_KEY: 'a2',
      PETCERT_PROD_BUSINESS_KEY: 'a3',
      PETCERT_PROD_CONFORM_KEY: 'a4',
      ACME_FREE_KEY: 'a5',
      ACME_ENTERPRISE_KEY: 'a6',
    };
    expect(Object.keys(loaded.config.targets)).toEqual(['staging', 'production', 'vendor-acme']);
    expect(pickTarget(loaded.config, undefined).name).toBe('staging');
    const acme = resolveTarget(loaded.config.targets['vendor-acme']!, loaded.path, env);
    expect(acme.plans.plans.enterprise).toEqual({ perMinute: 5000, perDay: 1000000 });
    expect(resolveTarget(loaded.config.targets.production!, loaded.path, env)).toMatchObject({
      production: true,
      conformKeys: [{ key: 'a4' }],
    });
  });

  test('github-actions/petcert.yml: conform against staging with the secret, reports uploaded always', () => {
    const workflow = parse(readFileSync(file('examples/github-actions/petcert.yml'), 'utf8')) as {
      jobs: Record<
        string,
        {
          steps: Array<{
            name?: string;
            uses?: string;
            run?: string;
            if?: string;
            env?: Record<string, string>;
            with?: Record<string, unknown>;
          }>;
        }
      >;
    };
    const steps = workflow.jobs['conform-staging']!.steps;
    const conform = steps.find((s) => s.run?.includes('petcert.js conform'))!;
    expect(conform.env!.PETCERT_STAGING_KEY).toBe('${{ secrets.PETCERT_STAGING_KEY }}');
    // The key with its plan: without it ratelimit.limit-of-plan is not judged and the run is INCOMPLETE (exit 4).
    expect(conform.run).toContain('--key free=env:PETCERT_STAGING_KEY');
    const upload = steps.find((s) => s.uses?.startsWith('actions/upload-artifact'))!;
    expect(upload.if).toBe('always()');
    expect(upload.with!.path).toBe('reports/');
  });
});
