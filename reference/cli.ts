// `petcert serve`: placeholder until the reference server lands (issue #2 §3).
import type { Command } from 'commander';

export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('Run the reference Animal Store server')
    .action(() => {
      throw new Error('not implemented yet');
    });
}
