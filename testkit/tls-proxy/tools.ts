// The Debian programs the corporate-network tests run (nginx, squid, tinyproxy, openssl). In CI
// (CI=true) a missing one fails those tests, never skips them (.ci/run installs them); elsewhere they
// are skipped, and the title and a warning say so, as the k6 and chromium tests do.
import { existsSync } from 'node:fs';
import { IN_CI } from '../k6/k6.ts';

export const TOOLS = {
  nginx: '/usr/sbin/nginx',
  squid: '/usr/sbin/squid',
  tinyproxy: '/usr/bin/tinyproxy',
  openssl: '/usr/bin/openssl',
} as const;

export type Tool = keyof typeof TOOLS;

const missing = (Object.keys(TOOLS) as Tool[]).filter((t) => !existsSync(TOOLS[t]));

/** Why the tests are skipped (outside CI, a tool missing), or undefined: they run (and fail in CI when one is missing). */
export const NETWORK_SKIP =
  missing.length > 0 && !IN_CI
    ? `skipped: ${missing.join(', ')} not installed — apt-get install -y nginx squid tinyproxy openssl (.ci/run does)`
    : undefined;

if (NETWORK_SKIP) console.warn(`corporate-network tests ${NETWORK_SKIP}`);

/** The path of a tool, or an error saying how to install it (CI: the test fails with it). */
export function toolPath(tool: Tool): string {
  if (!existsSync(TOOLS[tool]))
    throw new Error(`${tool} is not installed at ${TOOLS[tool]}: apt-get install -y ${tool} (.ci/run installs it)`);
  return TOOLS[tool];
}
