#!/usr/bin/env node
// Node 20 cannot run TypeScript by itself; tsx compiles each module once, in memory, on load.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../cli/main.ts');
process.exitCode = await main(process.argv);
