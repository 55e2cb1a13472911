// JUnit XML from a report: one testcase per check. MUST failures are <failure>s; SHOULD findings and
// OBSERVE records go to <properties> and <system-out>, so they are visible without failing the suite
// and never pose as skips. Only checks that genuinely did not run are <skipped>, their message saying
// which kind: "NOT JUDGED" with its reason and fix (an unjudged MUST rules out a pass), or "not
// applicable". CI test views (GitLab, Jenkins, the GitHub Actions JUnit reporters) show a <skipped>'s
// message beside the test but count skips as green and ignore suite properties; so an INCOMPLETE run
// also carries one <error> testcase naming every MUST check not judged: the suite is red exactly when
// the exit code is not 0, and the reason is where the reader looks first.
import {
  durationSeconds,
  failingChecks,
  readingLine,
  TLS_OFF_TEXT,
  unjudgedMust,
  verdictOf,
  type CheckResult,
  type FailOn,
  type Report,
} from './model.ts';

export function xmlEscape(text: string): string {
  return text
    .replace(
      /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
    )
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

function failureText(check: CheckResult): string {
  return check.failures
    .map((f) =>
      [f.message, f.counterexample !== undefined ? `counterexample: ${JSON.stringify(f.counterexample)}` : '', f.repro]
        .filter(Boolean)
        .join('\n'),
    )
    .join('\n\n');
}

/** What a CI reader sees beside a skipped test: whether it was judged, why not, and the fix. */
export function skipMessage(check: CheckResult): string {
  const reason = check.skipReason ?? 'not run';
  if (check.skipKind === 'not-applicable') return `not applicable: ${reason}`;
  // True whatever the run's verdict (a FAIL run has unjudged checks too): a MUST not judged only rules out a pass.
  const head =
    check.level === 'MUST'
      ? 'NOT JUDGED (a MUST check: the run cannot pass)'
      : `NOT JUDGED (${check.level}: does not decide the verdict)`;
  return `${head}: ${reason}${check.fix ? ` — fix: ${check.fix}` : ''}`;
}

function testcase(check: CheckResult, failing: Set<CheckResult>, suite: string): string {
  const open = `    <testcase classname="${xmlEscape(`${suite}.${check.level}`)}" name="${xmlEscape(`${check.id}: ${check.title}`)}">`;
  const props = [
    `      <properties>`,
    `        <property name="level" value="${xmlEscape(check.level)}"/>`,
    `        <property name="specRef" value="${xmlEscape(check.specRef)}"/>`,
    `        <property name="outcome" value="${xmlEscape(check.outcome)}"/>`,
    ...(check.level === 'SHOULD' && check.outcome === 'fail'
      ? [`        <property name="should-finding" value="${xmlEscape(check.failures[0]?.message ?? '')}"/>`]
      : []),
    `      </properties>`,
  ];
  const body: string[] = [];
  if (failing.has(check)) {
    body.push(
      `      <failure message="${xmlEscape(check.failures[0]?.message ?? 'failed')}"` +
        ` type="${xmlEscape(check.level)}">${xmlEscape(failureText(check))}</failure>`,
    );
  } else if (check.outcome === 'skip') {
    body.push(`      <skipped message="${xmlEscape(skipMessage(check))}"/>`);
  }
  const out: string[] = [];
  if (check.outcome === 'fail' && !failing.has(check))
    out.push(`${check.level} finding (does not fail the run):\n${failureText(check)}`);
  if (check.observed !== undefined) out.push(`observed: ${JSON.stringify(check.observed, null, 2)}`);
  if (out.length) body.push(`      <system-out>${xmlEscape(out.join('\n\n'))}</system-out>`);
  return [open, ...props, ...body, `    </testcase>`].join('\n');
}

/**
 * A run that stopped early is one <error> testcase: CI systems count errors from elements, so the
 * suite's errors="1" must have one to point at (and the run must not read as a clean pass).
 */
function abortedCase(report: Report, suite: string): string[] {
  if (!report.aborted) return [];
  return [
    `    <testcase classname="${xmlEscape(`${suite}.run`)}" name="run completed">`,
    `      <error message="${xmlEscape(report.aborted.message)}" type="${xmlEscape(report.aborted.code)}">${xmlEscape(
      `The run stopped early` + ` (${report.aborted.code}); the verdict is incomplete.\n${report.aborted.message}`,
    )}</error>`,
    `    </testcase>`,
  ];
}

/**
 * A finished run with MUST checks not judged: one testcase "every MUST check judged", an <error> (the
 * run is INCOMPLETE, exit 4), or a <skipped> saying --allow-incomplete accepted it (exit 0).
 */
function incompleteCase(report: Report, suite: string, failOn: FailOn): string[] {
  const unjudged = unjudgedMust(report);
  if (report.aborted || verdictOf(report, failOn) !== 'incomplete') return [];
  const list = unjudged
    .map((c) => `${c.id}: ${c.skipReason ?? 'not run'}${c.fix ? ` (fix: ${c.fix})` : ''}`)
    .join('\n');
  const message = `${unjudged.length} MUST check(s) not judged: ${unjudged.map((c) => c.id).join(', ')}`;
  const verdict = report.allowIncomplete
    ? `      <skipped message="${xmlEscape(`INCOMPLETE, allowed by --allow-incomplete: ${message}`)}"/>`
    : `      <error message="${xmlEscape(message)}" type="INCOMPLETE">${xmlEscape(
        `The run finished but is INCOMPLETE (exit 4): a PASS needs` + ` every MUST check judged.\n${list}`,
      )}</error>`;
  return [
    `    <testcase classname="${xmlEscape(`${suite}.run`)}" name="every MUST check judged">`,
    verdict,
    `    </testcase>`,
  ];
}

export function toJUnit(report: Report, failOn: FailOn = 'must'): string {
  const failing = new Set(failingChecks(report, failOn));
  const suite = `petcert.${report.kind}`;
  const incomplete = incompleteCase(report, suite, failOn);
  const allowed = incomplete.length > 0 && report.allowIncomplete === true;
  const skipped = report.checks.filter((c) => c.outcome === 'skip').length + (allowed ? 1 : 0);
  const seconds = Math.max(0, durationSeconds(report) ?? 0);
  const errors = report.aborted || (incomplete.length > 0 && !allowed) ? 1 : 0;
  const tests = report.checks.length + (report.aborted || incomplete.length > 0 ? 1 : 0);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="petcert" tests="${tests}" failures="${failing.size}" errors="${errors}" skipped="${skipped}" time="${seconds.toFixed(3)}">`,
    `  <testsuite name="${xmlEscape(suite)}" tests="${tests}" failures="${failing.size}" errors="${errors}" skipped="${skipped}"` +
      ` time="${seconds.toFixed(3)}" timestamp="${xmlEscape(report.startedAt)}">`,
    `    <properties>`,
    `      <property name="target" value="${xmlEscape(report.target)}"/>`,
    `      <property name="seed" value="${report.seed ?? ''}"/>`,
    `      <property name="requests" value="${report.requests}"/>`,
    `      <property name="verdict" value="${xmlEscape(verdictOf(report, failOn).toUpperCase())}${
      report.allowIncomplete ? ' (allowed by' + ' --allow-incomplete)' : ''
    }"/>`,
    `      <property name="unjudged-must" value="${unjudgedMust(report).length}"/>`,
    ...(report.aborted ? [`      <property name="aborted" value="${xmlEscape(report.aborted.message)}"/>`] : []),
    ...networkProperties(report),
    ...(readingLine(report) ? [`      <property name="reading" value="${xmlEscape(readingLine(report)!)}"/>`] : []),
    `    </properties>`,
    ...abortedCase(report, suite),
    ...incomplete,
    ...report.checks.map((c) => testcase(c, failing, suite)),
    `  </testsuite>`,
    `</testsuites>`,
    '',
  ].join('\n');
}

/** How the target was reached: the proxy (redacted), and when verification was off, a property that says so. */
function networkProperties(report: Report): string[] {
  const n = report.network;
  if (!n) return [];
  const off = n.tlsVerification === 'off' ? [`      <property name="tls" value="${xmlEscape(TLS_OFF_TEXT)}"/>`] : [];
  return [`      <property name="proxy" value="${xmlEscape(n.proxy ?? 'none')}"/>`, ...off];
}
