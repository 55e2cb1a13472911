// JUnit XML from a report: one testcase per check. MUST failures are <failure>s; SHOULD findings and
// OBSERVE records go to <properties> and <system-out>, so they are visible without failing the suite
// and never pose as skips. Only checks that genuinely did not run are <skipped>.
import { durationSeconds, failingChecks, type CheckResult, type FailOn, type Report } from './model.ts';

export function xmlEscape(text: string): string {
  return text
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

function failureText(check: CheckResult): string {
  return check.failures
    .map((f) => [f.message, f.counterexample !== undefined ? `counterexample: ${JSON.stringify(f.counterexample)}` : '', f.repro].filter(Boolean).join('\n'))
    .join('\n\n');
}

function testcase(check: CheckResult, failing: Set<CheckResult>, suite: string): string {
  const open = `    <testcase classname="${xmlEscape(`${suite}.${check.level}`)}" name="${xmlEscape(`${check.id}: ${check.title}`)}">`;
  const props = [
    `      <properties>`,
    `        <property name="level" value="${xmlEscape(check.level)}"/>`,
    `        <property name="specRef" value="${xmlEscape(check.specRef)}"/>`,
    `        <property name="outcome" value="${xmlEscape(check.outcome)}"/>`,
    ...(check.level === 'SHOULD' && check.outcome === 'fail' ? [`        <property name="should-finding" value="${xmlEscape(check.failures[0]?.message ?? '')}"/>`] : []),
    `      </properties>`,
  ];
  const body: string[] = [];
  if (failing.has(check)) {
    body.push(`      <failure message="${xmlEscape(check.failures[0]?.message ?? 'failed')}" type="${xmlEscape(check.level)}">${xmlEscape(failureText(check))}</failure>`);
  } else if (check.outcome === 'skip') {
    body.push(`      <skipped message="${xmlEscape(check.skipReason ?? 'not run')}"/>`);
  }
  const out: string[] = [];
  if (check.outcome === 'fail' && !failing.has(check)) out.push(`${check.level} finding (does not fail the run):\n${failureText(check)}`);
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
    `      <error message="${xmlEscape(report.aborted.message)}" type="${xmlEscape(report.aborted.code)}">${xmlEscape(`The run stopped early (${report.aborted.code}); the verdict is incomplete.\n${report.aborted.message}`)}</error>`,
    `    </testcase>`,
  ];
}

export function toJUnit(report: Report, failOn: FailOn = 'must'): string {
  const failing = new Set(failingChecks(report, failOn));
  const suite = `petcert.${report.kind}`;
  const skipped = report.checks.filter((c) => c.outcome === 'skip').length;
  const seconds = Math.max(0, durationSeconds(report) ?? 0);
  const errors = report.aborted ? 1 : 0;
  const tests = report.checks.length + errors;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="petcert" tests="${tests}" failures="${failing.size}" errors="${errors}" skipped="${skipped}" time="${seconds.toFixed(3)}">`,
    `  <testsuite name="${xmlEscape(suite)}" tests="${tests}" failures="${failing.size}" errors="${errors}" skipped="${skipped}" time="${seconds.toFixed(3)}" timestamp="${xmlEscape(report.startedAt)}">`,
    `    <properties>`,
    `      <property name="target" value="${xmlEscape(report.target)}"/>`,
    `      <property name="seed" value="${report.seed ?? ''}"/>`,
    `      <property name="requests" value="${report.requests}"/>`,
    ...(report.aborted ? [`      <property name="aborted" value="${xmlEscape(report.aborted.message)}"/>`] : []),
    `    </properties>`,
    ...abortedCase(report, suite),
    ...report.checks.map((c) => testcase(c, failing, suite)),
    `  </testsuite>`,
    `</testsuites>`,
    '',
  ].join('\n');
}
