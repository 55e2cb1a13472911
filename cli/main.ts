// The petcert command line: one commander program; each folder registers its own command.
// Exit codes are part of the interface (report/model.ts EXIT, EXIT_CODES_TEXT): 0 pass · 1 fail · 2 usage or
// config error · 3 stopped before a verdict · 4 INCOMPLETE · 130/143 interrupted by SIGINT/SIGTERM (the
// report of what was judged is written) · 70 an internal error (a bug in petcert).
import { Command, CommanderError } from 'commander';
import { ConfigError, PetcertError, UnreachableError, errorMessage } from '../core/errors.ts';
import { VERSION } from '../core/version.ts';
import { registerConform } from './conform.ts';
import { registerQuota } from './quota.ts';
import { registerServe } from './serve.ts';
import { registerCertify } from './certify-cli.ts';
import { registerCapacity } from './capacity.ts';
import { EXIT } from '../report/model.ts';
import { SIGNAL_EXIT } from './interrupt.ts';

/**
 * An error petcert did not expect (a bug: "please report"): sysexits' EX_SOFTWARE, apart from every verdict
 * code, so that a crash is never read as INCOMPLETE (4) by a CI that allows incomplete runs.
 */
export const INTERNAL_ERROR_EXIT = 70;

export function buildProgram(): Command {
  const program = new Command('petcert')
    .description('Conformance and load-testing harness for the Animal Store API v1')
    .version(VERSION)
    .showHelpAfterError('(run with --help for usage and examples)')
    .exitOverride();
  registerCertify(program);
  registerConform(program);
  registerQuota(program);
  registerServe(program);
  registerCapacity(program);
  return program;
}

export function exitCodeFor(error: unknown): number {
  if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT.pass : EXIT.usage;
  if (error instanceof ConfigError) return EXIT.usage;
  if (error instanceof UnreachableError) return EXIT.stopped;
  return INTERNAL_ERROR_EXIT;
}

export async function main(argv: readonly string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync([...argv]);
    const code = typeof process.exitCode === 'number' ? process.exitCode : EXIT.pass;
    // An interrupted run's report is written; a wait it cut short may still hold a timer: exit now.
    if (Object.values(SIGNAL_EXIT).includes(code)) process.exit(code);
    return code;
  } catch (error) {
    const code = exitCodeFor(error);
    if (error instanceof CommanderError) return code; // commander already printed the message
    if (error instanceof PetcertError) console.error(`petcert: ${error.message}`);
    else
      console.error(
        `petcert: internal error (please report): ${error instanceof Error ? error.stack : errorMessage(error)}`,
      );
    return code;
  }
}
