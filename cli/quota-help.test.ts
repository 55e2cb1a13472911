// `petcert quota --help` is read at a terminal: it points to the worst-case formula instead of printing
// it, and the README it points to holds the formula as probes/bounds.ts writes it from the declared waits.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { formatBound } from '../core/duration.ts';
import { BOUND_FORMULA } from '../load/probes/bounds.ts';
import { quotaBoundOf } from '../load/quota.ts';
import { specPlanTable } from '../spec/plans.ts';
import { ROOT } from '../testkit/cli/documented.ts';
import { buildProgram } from './main.ts';
import { QUOTA_BOUND_POINTER } from './quota.ts';

function quotaHelp(): string {
  const quota = buildProgram().commands.find((c) => c.name() === 'quota')!;
  let text = '';
  quota.configureOutput({ writeOut: (s) => void (text += s) });
  quota.outputHelp();
  return text;
}

const README = readFileSync(join(ROOT, 'load/README.md'), 'utf8');

test('quota --help points to the formula in one line, and prints no part of it', () => {
  const help = quotaHelp();
  expect(help.split('\n')).toContain(QUOTA_BOUND_POINTER);
  for (const line of BOUND_FORMULA.split('\n')) expect(help).not.toContain(line.trim());
  expect(QUOTA_BOUND_POINTER).toMatch(/load\/README\.md\.$/);
});

test('load/README.md holds the formula as bounds.ts writes it, and the figure both quote', () => {
  expect(README).toContain(`\`\`\`text\n${BOUND_FORMULA}\n\`\`\``);
  const freeOnSpec = formatBound(quotaBoundOf({ keys: [{ plan: 'free', key: 'k' }], plans: specPlanTable() }).totalMs);
  expect(README).toContain(`One Free key on the spec's windows: ${freeOnSpec}.`);
  expect(QUOTA_BOUND_POINTER).toContain(`spec's windows: ${freeOnSpec})`);
});
