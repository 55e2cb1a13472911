// `petcert quota`: placeholder until its issue lands.
import type { Command } from 'commander';

export function registerQuota(program: Command): void {
  program
    .command('quota')
    .description('Verify per-plan quotas, Retry-After and rate-limit headers')
    .action(() => {
      throw new Error('not implemented yet');
    });
}
