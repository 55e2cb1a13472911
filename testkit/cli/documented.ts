// Every command line the documentation shows a user, read from where it is written (docs/decisions/009): each
// command's --help examples, the shell blocks of README.md and docs/, and the GitHub Actions workflow in
// examples/ (its steps, and the steps it shows commented out). A new example is picked up without
// touching the test that runs them all (cli/documented.e2e.test.ts).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { parse } from 'yaml';
import { buildProgram } from '../../cli/main.ts';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface Example {
  /** Where it is written, e.g. "petcert conform --help". */
  source: string;
  /** Shell text, as written (continuations joined, comments and `export …=...` lines dropped). */
  shell: string;
  /** Environment the source sets for it (the workflow's `env:`), names only. */
  env?: string[];
}

function helpOf(cmd: Command): string {
  let text = '';
  cmd.configureOutput({ writeOut: (s) => void (text += s), writeErr: (s) => void (text += s) });
  cmd.outputHelp();
  return text;
}

function commandsOf(cmd: Command, prefix = 'petcert'): Array<{ name: string; cmd: Command }> {
  return cmd.commands.flatMap((c) => [
    { name: `${prefix} ${c.name()}`, cmd: c },
    ...commandsOf(c, `${prefix} ${c.name()}`),
  ]);
}

/** Lines that run petcert, continuations (`\`) joined; synopses (`[--flag]`, `…`) are not examples. */
export function commandLines(text: string, runs = /^(petcert|node bin\/petcert\.js|npx petcert) /): string[] {
  const joined = text.replace(/\\\n\s*/g, ' ');
  return joined
    .split('\n')
    .map((line) =>
      line
        .trim()
        .replace(/\s+#\s.*$/, '')
        .trim(),
    )
    .filter((line) => runs.test(line) && !/[[…]|\.\.\./.test(line));
}

export function helpExamples(): Example[] {
  return commandsOf(buildProgram()).flatMap(({ name, cmd }) =>
    commandLines(helpOf(cmd)).map((shell) => ({ source: `${name} --help`, shell })),
  );
}

/** ```sh blocks of README.md and docs/*.md; `npm start` is `petcert certify` (package.json). */
export function markdownExamples(): Example[] {
  const files = [
    'README.md',
    ...readdirSync(join(ROOT, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f}`),
  ];
  return files.flatMap((file) => {
    const blocks = [...readFileSync(join(ROOT, file), 'utf8').matchAll(/```(?:sh|bash|shell)\n([\s\S]*?)```/g)].map(
      (m) => m[1]!,
    );
    const lines = blocks.flatMap((b) =>
      commandLines(
        b.replace(/^npm start\b.*$/gm, 'petcert certify'),
        /^(petcert|node bin\/petcert\.js|npx petcert|npm start) /,
      ),
    );
    return lines.map((shell) => ({ source: file, shell }));
  });
}

interface Step {
  name?: string;
  run?: string;
  env?: Record<string, string>;
}

/** The workflow's steps that run petcert (whole scripts, guard included), and its commented-out `run:` lines. */
export function workflowExamples(file = 'examples/github-actions/petcert.yml'): Example[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const jobs = (parse(text) as { jobs: Record<string, { steps: Step[] }> }).jobs;
  const steps = Object.values(jobs)
    .flatMap((j) => j.steps)
    .filter((s) => s.run?.includes('petcert'));
  const live = steps.map((s) => ({
    source: `${file}: ${s.name ?? 'a step'}`,
    shell: s.run!,
    env: Object.keys(s.env ?? {}),
  }));
  const commented = [...text.matchAll(/^\s*#\s+run: (.*petcert.*)$/gm)].map((m) => ({
    source: `${file} (commented step)`,
    shell: m[1]!.trim(),
  }));
  return [...live, ...commented];
}

/** Every documented example, each command line once (the first place it is written names it). */
export function documentedExamples(): Example[] {
  const seen = new Set<string>();
  const normal = (shell: string) =>
    shell
      .replace(/^(node bin\/petcert\.js|npx petcert)/gm, 'petcert')
      .replace(/\s+/g, ' ')
      .trim();
  return [...helpExamples(), ...markdownExamples(), ...workflowExamples()].filter((e) => {
    const key = normal(e.shell);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
