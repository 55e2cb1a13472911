// The product files under a folder, subfolders included: what tests that read the source (the probe core's
// imports, its module-level state, its direct ledger calls) go through.
import { readdirSync } from 'node:fs';

/** Paths relative to `dir` of every `.ts` file under it that is not a test. */
export const productFiles = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
