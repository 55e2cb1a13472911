// report.html: one self-contained page (inline CSS and SVG, no script at all, so nothing to load and
// nothing to run). A Content-Security-Policy that forbids every script and every fetch is a second
// wall behind the escaping: even a markup injection we missed could neither run nor phone home.
import { overAdmittedText } from './over-admitted.ts';
import { escapeHtml as esc, clip, prettyJson } from './html-escape.ts';
import { cumulativePlot, remainingPlot, type DayFrame } from './html-plot.ts';
import { k6Section } from './html-k6.ts';
import { capacitySection } from './html-capacity.ts';
import { HTML_STYLE } from './html-style.ts';
import { FAILURE_POLICY } from './ledger.ts';
import {
  durationSeconds,
  failingChecks,
  isNotApplicable,
  readingLine,
  TLS_OFF_TEXT,
  unjudgedMust,
  verdictOf,
  type CheckResult,
  type Failure,
  type FailOn,
  type OverAdmitted,
  type Report,
  type Sample,
} from './model.ts';

const CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";

function headerLines(headers: Record<string, string>): string {
  return Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}`)
    .join('\n');
}

function verdictBlock(report: Report, failOn: FailOn): string {
  const verdict = verdictOf(report, failOn);
  const count = (level: string, outcome: string) =>
    report.checks.filter((c) => c.level === level && c.outcome === outcome).length;
  const failing = failingChecks(report, failOn).length;
  const incomplete = report.aborted ? 'INCOMPLETE — stopped before a verdict' : 'INCOMPLETE — MUST checks not judged';
  const words = {
    pass: 'PASS — conforms',
    fail: 'FAIL — does not conform',
    incomplete: report.allowIncomplete ? `${incomplete} (allowed by --allow-incomplete)` : incomplete,
  };
  const unjudged = unjudgedMust(report).length;
  return `<section id="verdict" class="verdict ${verdict}" data-verdict="${verdict}">
<h1>${words[verdict]}</h1>
<p>${esc(report.target)} · ${report.checks.length} checks · ${failing} failing at the <b>${failOn.toUpperCase()}</b> level
 · MUST ${count('MUST', 'pass')} passed, ${count('MUST', 'fail')} failed, ${unjudged} not judged
 · ${report.checks.filter(isNotApplicable).length} not applicable
 · SHOULD findings ${count('SHOULD', 'fail')} · OBSERVE records ${report.checks.filter((c) => c.level === 'OBSERVE').length}</p>
${report.aborted ? `<p class="aborted">Run stopped early (${esc(report.aborted.code)}): ${esc(report.aborted.message)}</p>` : ''}
${report.network?.tlsVerification === 'off' ? `<p class="aborted">${esc(TLS_OFF_TEXT)}</p>` : ''}
${readingLine(report) ? `<p class="reading">${esc(readingLine(report)!)}</p>` : ''}
${overAdmittedList(report)}
${unjudgedList(report)}
</section>`;
}

/** Every window in which more than the plan's figure were admitted, whatever the verdict. */
function overAdmittedList(report: Report): string {
  const over = report.overAdmitted ?? [];
  if (over.length === 0) return '';
  const items = over.map((o) => `<li>${esc(overAdmittedText(o))}</li>`);
  return `<div class="over-admitted"><h2>Windows over the plan's figure (${over.length})</h2><ul>${items.join('\n')}</ul></div>`;
}

/** Every MUST check not judged, with its reason and fix: what kept the run from a PASS (docs/decisions/001). */
function unjudgedList(report: Report): string {
  const unjudged = unjudgedMust(report);
  if (unjudged.length === 0) return '';
  const items = unjudged.map(
    (c) =>
      `<li><a href="#row-${anchor(c)}"><code>${esc(c.id)}</code></a>: ${esc(c.skipReason ?? 'not run')}${c.fix ? ` — <b>fix:</b> ${esc(c.fix)}` : ''}</li>`,
  );
  return `<div class="unjudged"><h2>MUST checks not judged (${unjudged.length})</h2><ul>${items.join('\n')}</ul></div>`;
}

/** The note under a skipped check: which kind of skip, why, and the fix. */
function skipNote(c: CheckResult): string {
  if (c.outcome !== 'skip') return '';
  const kind = c.skipKind === 'not-applicable' ? 'not applicable' : 'not judged';
  return `<div class="note">${kind}: ${esc(c.skipReason ?? 'not run')}${c.fix ? ` — fix: ${esc(c.fix)}` : ''}</div>`;
}

function runFacts(report: Report): string {
  const seconds = durationSeconds(report);
  const rows: Array<[string, string]> = [
    ['Target', report.target],
    ['Kind', report.kind],
    ['Started', report.startedAt],
    ['Finished', report.finishedAt],
    ['Duration', seconds !== undefined ? `${seconds.toFixed(1)} s` : '?'],
    ['Requests', String(report.requests)],
    ['Seed', report.seed === null ? '—' : `${report.seed} (replay with --seed ${report.seed})`],
    ['petcert', report.version],
  ];
  if (report.plans) {
    const { windows, plans } = report.plans;
    rows.push(['Windows', `minute = ${windows.minuteSeconds} s, day = ${windows.daySeconds} s`]);
    rows.push([
      'Plans',
      Object.entries(plans)
        .map(([name, p]) =>
          p.perMinute === null ? `${name}: custom` : `${name}: ${p.perMinute}/minute, ${p.perDay}/day`,
        )
        .join(' · '),
    ]);
  }
  return `<table class="facts">${rows.map(([k, v]) => `<tr><th>${k}</th><td>${esc(v)}</td></tr>`).join('')}</table>`;
}

function anchor(check: CheckResult): string {
  return `check-${check.id.replace(/[^A-Za-z0-9_-]/g, '_')}`;
}

function checksTable(report: Report, failing: Set<CheckResult>): string {
  const rows = report.checks.map((c) => {
    const shown = c.outcome === 'fail' && !failing.has(c) ? 'finding' : c.outcome;
    const title = c.outcome === 'fail' ? `<a href="#${anchor(c)}">${esc(c.title)}</a>` : esc(c.title);
    const note = skipNote(c);
    return (
      `<tr class="${esc(shown)}" id="row-${anchor(c)}"><td><code>${esc(c.id)}</code></td><td>${title}${note}</td><td class="level` +
      ` ${esc(c.level)}">${esc(c.level)}</td><td>${esc(c.specRef)}</td><td class="outcome ${esc(shown)}">${esc(shown)}</td></tr>`
    );
  });
  return (
    `<section id="checks"><h2>Checks</h2>
<p class="legend">MUST: the specification states it; a failure fails the run. SHOULD: RFC or best practice; a failure is a finding. OBSERVE:` +
    ` a gap in the specification; what the server does is recorded, never judged.</p>
<table class="checks"><thead><tr><th>Id</th><th>Check</th><th>Level</th><th>Spec</th><th>Outcome</th></tr></thead>
<tbody>${rows.join('\n')}</tbody></table></section>`
  );
}

function failureBlock(failure: Failure): string {
  const req = failure.request;
  const res = failure.response;
  const parts = [`<p class="message">${esc(failure.message)}</p>`];
  if (failure.expected !== undefined || failure.received !== undefined) {
    parts.push(
      `<div class="pair"><div><h4>Expected</h4><pre>${esc(clip(prettyJson(failure.expected)))}</pre></div><div><h4>Received</h4>` +
        `<pre>${esc(clip(prettyJson(failure.received)))}</pre></div></div>`,
    );
  }
  if (failure.counterexample !== undefined)
    parts.push(`<h4>Counterexample</h4><pre>${esc(clip(prettyJson(failure.counterexample)))}</pre>`);
  if (req) {
    const body = req.body !== undefined ? `\n\n${req.body}` : '';
    parts.push(
      `<h4>Request</h4><pre class="http">${esc(clip(`${req.method} ${req.url}\n${headerLines(req.headers)}${body}`))}</pre>`,
    );
  }
  if (res)
    parts.push(
      `<h4>Response</h4><pre class="http">${esc(clip(`${res.status}\n${headerLines(res.headers)}\n\n${res.body}`))}</pre>`,
    );
  if (failure.repro) parts.push(`<h4>Reproduce</h4><pre class="repro">${esc(failure.repro)}</pre>`);
  return `<div class="failure">${parts.join('\n')}</div>`;
}

/** A check failing for more than one cause lists them, each with its count. */
function causeList(c: CheckResult): string {
  if (!c.causes || c.causes.length < 2) return '';
  const items = c.causes.map((k) => `<li><code>${esc(k.cause)}</code> ×${k.count}</li>`).join('');
  const head = `${c.causes.length} distinct causes (one example of each below, up to five):`;
  return `<p class="note">${head}</p><ul class="causes">${items}</ul>`;
}

function failuresSection(report: Report, failing: Set<CheckResult>): string {
  const failed = report.checks.filter((c) => c.outcome === 'fail');
  if (failed.length === 0) return `<section id="failures"><h2>Failures</h2><p>None.</p></section>`;
  const blocks = failed.map((c) => {
    const kind = failing.has(c) ? 'fails the run' : `${esc(c.level)} finding, does not fail the run`;
    const shown = FAILURE_POLICY.maxPerCheck;
    const more =
      c.failures.length > shown ? `<p class="note">… and ${c.failures.length - shown} more in report.json</p>` : '';
    return (
      `<article class="check-failure" id="${anchor(c)}"><h3><code>${esc(c.id)}</code> ${esc(c.title)} <span class="level` +
      ` ${esc(c.level)}">${esc(c.level)}</span> <span class="spec">${esc(c.specRef)}</span></h3>
<p class="note">${kind}</p>${causeList(c)}${c.failures.slice(0, shown).map(failureBlock).join('\n')}${more}</article>`
    );
  });
  return `<section id="failures"><h2>Failures</h2>${blocks.join('\n')}</section>`;
}

function observeSection(report: Report): string {
  const records = report.checks.filter((c) => c.level === 'OBSERVE');
  if (records.length === 0) return '';
  const rows = records.map(
    (c) =>
      `<tr><td><code>${esc(c.id)}</code></td><td>${esc(c.title)}</td><td>${esc(c.specRef)}</td><td><pre>${
        c.outcome === 'skip'
          ? esc(`not observed: ${c.skipReason ?? 'skipped'}`)
          : esc(clip(prettyJson(c.observed), 1500))
      }</pre></td></tr>`,
  );
  return `<section id="observe"><h2>What the server does in the specification's gaps (OBSERVE)</h2>
<p class="legend">The specification does not say; these are records, not verdicts.</p>
<table class="checks"><thead><tr><th>Id</th><th>Gap</th><th>Spec</th><th>Observed</th></tr></thead><tbody>${rows.join('\n')}</tbody></table></section>`;
}

/** What a series is of: report.subjects, or for a report older than it, read off the name ("quota/day:free"). */
function subjectOf(report: Report, name: string): { plan: string | undefined; probe: string | undefined } {
  const s = report.subjects?.[name];
  if (s) return s;
  return { plan: /:([^:/]+)$/.exec(name)?.[1], probe: /(?:^|\/)([a-z]+):[^:/]+$/.exec(name)?.[1] };
}

/**
 * What the day plot needs: the day quota (from the report's plan table), the day's length, and one
 * day-window end the server itself stated — Reset while the headers report the day quota, or a day
 * 429's Retry-After — so that admissions are counted per day window on the server's clock.
 */
export function dayFrameOf(report: Report, probe: string, samples: readonly Sample[]): DayFrame {
  const { plan } = subjectOf(report, probe);
  const figures = plan === undefined ? undefined : report.plans?.plans[plan];
  const frame: DayFrame = {};
  if (figures?.perDay != null) frame.quota = figures.perDay;
  const windows = report.plans?.windows;
  if (!windows || figures?.perDay == null) return frame;
  frame.daySeconds = windows.daySeconds;
  const byHeader = samples.find((s) => s.limit === figures.perDay && s.reset !== undefined);
  const by429 = samples.find(
    (s) => s.status === 429 && s.retryAfter !== undefined && s.retryAfter > windows.minuteSeconds * 1.5,
  );
  if (byHeader) frame.dayEnd = byHeader.reset!;
  else if (by429) frame.dayEnd = Math.round(by429.t / 1000 + by429.retryAfter!);
  return frame;
}

/** The windows over the figure of this series' key (report.json `overAdmitted`). */
function overOf(report: Report, probe: string): OverAdmitted[] {
  const subject = report.subjects?.[probe];
  return subject ? (report.overAdmitted ?? []).filter((o) => o.key === subject.key && o.plan === subject.plan) : [];
}

function probeFigures(report: Report, probe: string, samples: readonly Sample[]): string {
  const rejected = samples.filter((s) => s.status === 429).length;
  const head = `<b>${esc(probe)}</b>: ${samples.length} request${samples.length === 1 ? '' : 's'}, ${rejected} × 429.`;
  if (samples.length < 2) {
    const s = samples[0]!;
    return (
      `<figure class="probe" data-probe="${esc(probe)}"><figcaption>${head} Status ${s.status}, Limit ${s.limit ?? '—'}, Remaining` +
      ` ${s.remaining ?? '—'}.</figcaption></figure>`
    );
  }
  const figs = [
    `<figure class="probe" data-probe="${esc(probe)}"><figcaption>${head} Remaining (blue) against the expected staircase (green, dashed)` +
      ` and Limit (grey); 429s marked ×, Retry-After waits shaded, windows over the plan's figure shaded red.` +
      `</figcaption>${remainingPlot(probe, samples, overOf(report, probe))}</figure>`,
  ];
  if (subjectOf(report, probe).probe === 'day') {
    const frame = dayFrameOf(report, probe, samples);
    const quota =
      frame.quota === undefined ? 'the day quota is not in the report' : `day quota ${frame.quota}, red line`;
    const windows =
      frame.dayEnd === undefined
        ? ''
        : "; counted per day window (dotted lines: day-window starts, from the server's Reset/Retry-After)";
    figs.push(
      `<figure class="probe" data-probe="${esc(probe)}-cumulative"><figcaption><b>${esc(probe)}</b>: admitted requests against the day quota` +
        ` (${quota})${windows}.</figcaption>${cumulativePlot(probe, samples, frame)}</figure>`,
    );
  }
  return figs.join('\n');
}

function seriesSection(report: Report): string {
  const entries = Object.entries(report.series ?? {}).filter(([, samples]) => samples.length > 0);
  if (entries.length === 0) return '';
  return `<section id="quota"><h2>Quota probes</h2>${entries.map(([probe, samples]) => probeFigures(report, probe, samples)).join('\n')}</section>`;
}

function createdSection(report: Report): string {
  const ids = report.createdIds ?? [];
  if (ids.length === 0) return '';
  return (
    `<section id="created"><h2>Pets created on the target</h2><p class="note">The API has no delete; petcert names its pets with the ` +
    `<code>petcert-</code> prefix.</p><p><code>${esc(ids.join(', '))}</code></p></section>`
  );
}

/** Links to the sections present (an absent section gets no dead link). */
function nav(sections: string[]): string {
  const names: Record<string, string> = {
    capacity: 'Capacity',
    checks: 'Checks',
    failures: 'Failures',
    observe: 'Gaps (OBSERVE)',
    quota: 'Quota plots',
    k6: 'k6',
    created: 'Created pets',
  };
  const links = sections
    .map((s) => /^<section id="([a-z0-9]+)"/.exec(s)?.[1])
    .filter((id): id is string => id !== undefined && id in names);
  return `<nav>${links.map((id) => `<a href="#${id}">${names[id]}</a>`).join(' · ')}</nav>`;
}

/** A certification's parts ("conform[free]", "quota"): one line each, from the check ids' prefixes. */
function partsTable(report: Report, failing: Set<CheckResult>): string {
  const parts = new Map<string, CheckResult[]>();
  if (report.kind !== 'certify') return '';
  for (const c of report.checks) {
    // A report older than `part` says it only in the id's prefix.
    const part = c.part ?? (c.id.includes('/') ? c.id.slice(0, c.id.indexOf('/')) : undefined);
    if (part) parts.set(part, [...(parts.get(part) ?? []), c]);
  }
  if (parts.size === 0) return '';
  const rows = [...parts].map(([part, checks]) => {
    const n = (f: (c: CheckResult) => boolean) => checks.filter(f).length;
    const bad = n((c) => failing.has(c));
    return (
      `<tr class="${bad ? 'fail' : ''}"><td><code>${esc(part)}</code></td><td>${checks.length}</td>` +
      `<td>${n((c) => c.outcome === 'pass')}</td><td>${bad}</td><td>${n((c) => c.outcome === 'fail' && !failing.has(c))}</td>` +
      `<td>${n((c) => c.outcome === 'skip')}</td></tr>`
    );
  });
  return (
    `<table class="checks parts"><thead><tr><th>Part</th><th>Checks</th><th>Passed</th><th>Failing</th><th>Findings</th><th>Skipped` +
    `</th></tr></thead><tbody>${rows.join('')}</tbody></table>`
  );
}

export function toHtml(report: Report, failOn: FailOn = 'must'): string {
  const failing = new Set(failingChecks(report, failOn));
  const sections = [
    capacitySection(report.capacity),
    checksTable(report, failing),
    failuresSection(report, failing),
    observeSection(report),
    seriesSection(report),
    k6Section(report.k6),
    createdSection(report),
  ].filter(Boolean);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>petcert ${esc(report.kind)}: ${verdictOf(report, failOn)} — ${esc(report.target)}</title>
<style>${HTML_STYLE}</style></head>
<body><main>
${verdictBlock(report, failOn)}
${runFacts(report)}
${nav(sections)}
${partsTable(report, failing)}
${sections.join('\n')}
<footer>petcert ${esc(report.version)} · report.json is the source of this page; junit.xml is for CI.</footer>
</main></body></html>
`;
}
