// No XML parser is installed, so well-formedness is checked structurally here (every tag balanced,
// attributes quoted, only the five entities); report/html.e2e.test.ts parses junit.xml with the
// browser's real XML parser too.
import { describe, expect, test } from 'vitest';
import { fixtureReport, HOSTILE } from '../testkit/report/fixtures.ts';
import { toJUnit, xmlEscape } from './junit.ts';

interface Element {
  name: string;
  attrs: Record<string, string>;
  children: Element[];
  text: string;
}

function parseXml(xml: string): Element {
  const body = xml.replace(/^<\?xml [^?]*\?>\s*/, '');
  const root: Element = { name: '#root', attrs: {}, children: [], text: '' };
  const stack = [root];
  const token = /<(\/?)([A-Za-z_][\w.-]*)((?:\s+[A-Za-z_][\w.-]*="[^"<]*")*)\s*(\/?)>|([^<]+)/gy;
  let m: RegExpExecArray | null;
  let at = 0;
  while (at < body.length && (m = token.exec(body))) {
    at = token.lastIndex;
    const top = stack[stack.length - 1]!;
    const [, close, name, attrs, selfClose, text] = m;
    if (text !== undefined) {
      if (/&(?!(amp|lt|gt|quot|apos);)/.test(text)) throw new Error(`bare & in text: ${text.slice(0, 40)}`);
      top.text += text;
    } else if (close) {
      if (top.name !== name) throw new Error(`</${name}> closes <${top.name}>`);
      stack.pop();
    } else {
      const el: Element = { name: name!, attrs: {}, children: [], text: '' };
      for (const [, k, v] of attrs!.matchAll(/([A-Za-z_][\w.-]*)="([^"]*)"/g)) {
        if (/&(?!(amp|lt|gt|quot|apos);)/.test(v!)) throw new Error(`bare & in attribute ${k}`);
        el.attrs[k!] = v!;
      }
      top.children.push(el);
      if (!selfClose) stack.push(el);
    }
  }
  if (at !== body.length) throw new Error(`not well-formed at ${at}: ${body.slice(at, at + 40)}`);
  if (stack.length !== 1) throw new Error(`unclosed <${stack[stack.length - 1]!.name}>`);
  return root;
}

const all = (el: Element, name: string): Element[] => [
  ...(el.name === name ? [el] : []),
  ...el.children.flatMap((c) => all(c, name)),
];

describe('toJUnit', () => {
  const report = fixtureReport();
  const xml = toJUnit(report);
  const doc = parseXml(xml);
  const cases = all(doc, 'testcase');

  test('well-formed, one testcase per check, counts agree with the elements', () => {
    const suite = all(doc, 'testsuite')[0]!;
    expect(cases).toHaveLength(report.checks.length);
    expect(Number(suite.attrs.tests)).toBe(cases.length);
    expect(Number(suite.attrs.failures)).toBe(all(doc, 'failure').length);
    expect(Number(suite.attrs.skipped)).toBe(all(doc, 'skipped').length);
    expect(Number(suite.attrs.errors)).toBe(all(doc, 'error').length);
  });

  test('a MUST failure is a <failure>; a SHOULD finding is a property and system-out, never a skip', () => {
    const must = cases.find((c) => c.attrs.name!.startsWith('list.limit-max'))!;
    expect(must.children.map((c) => c.name)).toContain('failure');
    const should = cases.find((c) => c.attrs.name!.startsWith('headers.cache'))!;
    expect(should.children.map((c) => c.name)).toEqual(['properties', 'system-out']);
    expect(all(should, 'property').find((p) => p.attrs.name === 'should-finding')!.attrs.value).toBe(
      'no Cache-Control',
    );
  });

  test('--fail-on should makes the SHOULD finding a <failure>', () => {
    const strict = parseXml(toJUnit(report, 'should'));
    const should = all(strict, 'testcase').find((c) => c.attrs.name!.startsWith('headers.cache'))!;
    expect(should.children.map((c) => c.name)).toContain('failure');
  });

  test('only checks that did not run are skipped; OBSERVE records go to system-out', () => {
    expect(all(doc, 'skipped')).toHaveLength(report.checks.filter((c) => c.outcome === 'skip').length);
    const observe = cases.find((c) => c.attrs.name!.startsWith('gap.default-status'))!;
    expect(all(observe, 'system-out')[0]!.text).toContain('observed:');
  });

  test('hostile text stays text', () => {
    expect(xml).not.toContain('<script>');
    expect(xml).toContain(xmlEscape(HOSTILE));
    expect(() => parseXml(toJUnit(fixtureReport({ target: 'a\u0001b & <c>' })))).not.toThrow();
  });

  test('an aborted run is an <error> testcase, counted', () => {
    const aborted = parseXml(
      toJUnit(fixtureReport({ aborted: { code: 'UNREACHABLE', message: 'connection refused <x>' } })),
    );
    const suite = all(aborted, 'testsuite')[0]!;
    expect(all(aborted, 'error')).toHaveLength(1);
    expect(suite.attrs.errors).toBe('1');
    expect(Number(suite.attrs.tests)).toBe(all(aborted, 'testcase').length);
  });

  test('INCOMPLETE: the unjudged MUST check is skipped saying NOT JUDGED with its fix, and one <error> testcase names it', () => {
    const checks = fixtureReport().checks.filter((c) => c.outcome !== 'fail');
    checks.push({
      id: 'n.a',
      title: 't',
      level: 'MUST',
      specRef: '§8.3',
      outcome: 'skip',
      failures: [],
      skipReason: 'judged by petcert quota',
      skipKind: 'not-applicable',
    });
    const at = checks.findIndex((c) => c.outcome === 'skip');
    checks[at] = { ...checks[at]!, fix: 'raise --budget to 9' };
    const incomplete = parseXml(toJUnit(fixtureReport({ checks })));
    const suite = all(incomplete, 'testsuite')[0]!;
    const skipped = all(incomplete, 'skipped').map((e) => e.attrs.message);
    expect(skipped).toContain(
      'NOT JUDGED (a MUST check: the run cannot pass): production target — fix: raise --budget to 9',
    );
    expect(skipped).toContain('not applicable: judged by petcert quota');
    const errors = all(incomplete, 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0]!.attrs.type).toBe('INCOMPLETE');
    expect(errors[0]!.attrs.message).toBe('1 MUST check(s) not judged: quota.day.exact[pro]');
    expect(suite.attrs.errors).toBe('1');
    expect(Number(suite.attrs.tests)).toBe(all(incomplete, 'testcase').length);
    expect(all(incomplete, 'property').find((p) => p.attrs.name === 'verdict')!.attrs.value).toBe('INCOMPLETE');
    // Allowed: no error, the run testcase is skipped saying so, and the counts still agree.
    const allowed = parseXml(toJUnit(fixtureReport({ checks, allowIncomplete: true })));
    expect(all(allowed, 'error')).toHaveLength(0);
    expect(all(allowed, 'skipped').map((e) => e.attrs.message)).toContain(
      'INCOMPLETE, allowed by --allow-incomplete: 1 MUST check(s) not judged: quota.day.exact[pro]',
    );
    expect(Number(all(allowed, 'testsuite')[0]!.attrs.skipped)).toBe(all(allowed, 'skipped').length);
    // A failing run is FAIL, not INCOMPLETE: no extra testcase.
    expect(all(parseXml(toJUnit(fixtureReport())), 'error')).toHaveLength(0);
  });

  test('the checker itself rejects malformed XML', () => {
    expect(() => parseXml('<a><b></a></b>')).toThrow(/closes/);
    expect(() => parseXml('<a>x & y</a>')).toThrow(/bare &/);
    expect(() => parseXml('<a x=1></a>')).toThrow(/not well-formed/);
  });
});

test('a hand-edited report.json cannot break the XML through level or outcome', () => {
  const report = fixtureReport();
  const forged = { ...report.checks[0]!, level: 'MUST"/><x a="' as never, outcome: '<y>' as never };
  expect(() => parseXml(toJUnit({ ...report, checks: [forged] }))).not.toThrow();
  expect(all(parseXml(toJUnit({ ...report, checks: [forged] })), 'x')).toHaveLength(0);
});
