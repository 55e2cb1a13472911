#!/usr/bin/env node
// In the installed package: the built bundle (dist/petcert.js), plain JavaScript, no compiler at run
// time. In a checkout, where the TypeScript sources are: the sources themselves through tsx (a dev
// dependency), so no build step can ever run stale code.
import { existsSync } from 'node:fs';

// `petcert --help | head` closes the pipe early: that is the reader's choice, not an error.
process.stdout.on('error', (error) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});

const source = new URL('../cli/main.ts', import.meta.url);
let main;
if (existsSync(source)) {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import(source.href));
} else {
  ({ main } = await import('../dist/petcert.js'));
}
process.exitCode = await main(process.argv);
