// The conformance console summary: the shared verdict lines, then for each failing check its shrunk
// counterexample and a curl repro, SHOULD findings, what was observed in the gaps and the pets created.
// The MUST checks not judged (a skip is not a pass) are listed by the verdict lines, as for every
// command. Pure: returns lines; the CLI prints them.
import { verdictLines, type VerdictOptions } from './console.ts';
import { failingChecks, type Report } from './model.ts';

const clip = (text: string, n = 160): string => (text.length > n ? `${text.slice(0, n - 1)}…` : text);

export function conformSummary(report: Report, options: VerdictOptions = {}, replay = 'petcert conform'): string[] {
  const failOn = options.failOn ?? 'must';
  const lines = verdictLines(report, options);
  const failing = failingChecks(report, failOn);
  for (const check of failing) {
    const f = check.failures[0];
    if (!f) continue;
    lines.push('', `✗ ${check.id} — ${check.title} [${check.level} ${check.specRef}]`, `  ${clip(f.message, 300)}`);
    if (f.counterexample !== undefined)
      lines.push(
        `  counterexample: ${clip(JSON.stringify((f.counterexample as { input?: unknown }).input ?? f.counterexample), 300)}`,
      );
    if (f.response) lines.push(`  response: ${f.response.status} ${clip(f.response.body.replace(/\s+/g, ' '), 200)}`);
    if (f.repro) lines.push(`  repro: ${clip(f.repro, 400)}`);
  }
  const should = report.checks.filter((c) => c.level === 'SHOULD' && c.outcome === 'fail' && !failing.includes(c));
  if (should.length)
    lines.push(
      '',
      'SHOULD findings (do not fail the run):',
      ...should.map((c) => `  ! ${c.id}: ${clip(c.failures[0]?.message ?? c.title)}`),
    );
  const observed = report.checks.filter((c) => c.level === 'OBSERVE' && c.observed !== undefined);
  if (observed.length) {
    lines.push('', 'Observed in the gaps of the spec:');
    for (const c of observed) {
      const seen = (c.observed as { seen?: Record<string, number> }).seen;
      if (seen)
        lines.push(
          `  · ${c.id}: ${clip(
            Object.entries(seen)
              .map(([k, n]) => `${k} ×${n}`)
              .join('; '),
          )}`,
        );
    }
  }
  if (report.createdIds?.length)
    lines.push(
      '',
      `Created ${report.createdIds.length} pets (names start with "petcert-"); their ids are in report.json.`,
    );
  if (failing.length && report.seed !== null) lines.push(`Replay the same inputs: ${replay} --seed ${report.seed}`);
  return lines;
}
