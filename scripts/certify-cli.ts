// `petcert certify`: placeholder until its issue lands.
import type { Command } from 'commander';

export function registerCertify(program: Command): void {
  program
    .command('certify')
    .description('Conformance plus quotas for every configured key, one report')
    .action(() => {
      throw new Error('not implemented yet');
    });
}
