// `petcert conform`: placeholder until its issue lands.
import type { Command } from 'commander';

export function registerConform(program: Command): void {
  program
    .command('conform')
    .description('Run the conformance suite against a base URL')
    .action(() => {
      throw new Error('not implemented yet');
    });
}
