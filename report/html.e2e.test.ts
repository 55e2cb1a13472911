// report.html in a real browser (Debian chromium driven by playwright-core): it renders, logs no
// console errors, loads nothing from the network, runs no injected script, and the plots are drawn.
// The screenshot is kept as an artifact: reports/artifacts/report-html.png.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { fixtureReport } from '../testkit/report/fixtures.ts';
import { writeReport } from './write.ts';

const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
const ARTIFACTS = resolve('reports/artifacts');

if (!hasChromium) console.warn(`SKIPPED: ${CHROMIUM} not found; install it with: apt-get install -y chromium`);

describe.skipIf(!hasChromium)('report.html in headless chromium', () => {
  let context: BrowserContext;
  let profile: string;

  beforeAll(async () => {
    profile = mkdtempSync(join(tmpdir(), 'petcert-chromium-'));
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--disable-dev-shm-usage',
      ],
      viewport: { width: 1200, height: 900 },
    });
  }, 60_000);

  afterAll(async () => {
    await context?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
  });

  test('renders a failing report with hostile content: verdict, tables, plots, no errors, no script', async () => {
    const dir = join(ARTIFACTS, 'html-e2e');
    writeReport(dir, fixtureReport(), []);
    const page = await context.newPage();
    const problems: string[] = [];
    const requests: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    page.on('dialog', (d) => {
      problems.push(`dialog: ${d.message()}`);
      void d.dismiss();
    });
    page.on('request', (r) => requests.push(r.url()));
    await page.goto(pathToFileURL(join(dir, 'report.html')).href, { waitUntil: 'load' });

    await expect.poll(() => page.locator('#verdict').getAttribute('data-verdict')).toBe('fail');
    expect(await page.locator('#verdict h1').textContent()).toContain('FAIL');
    expect(await page.locator('table.checks tbody tr').count()).toBeGreaterThan(5);
    const plots = page.locator('svg.plot');
    expect(await plots.count()).toBe(4);
    for (let i = 0; i < 4; i += 1) {
      const plot = plots.nth(i);
      expect(await plot.locator('circle.point').count()).toBeGreaterThan(0);
      const box = await plot.boundingBox();
      expect(box?.width ?? 0).toBeGreaterThan(300);
    }
    expect(await page.locator('svg .observed').first().getAttribute('d')).toMatch(/^M[\d.]+,[\d.]+H/);
    expect(await page.locator('rect.wait').count()).toBeGreaterThan(0);
    expect(await page.evaluate(() => (globalThis as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(await page.locator('img').count()).toBe(0);
    expect(await page.locator('pre.http').first().textContent()).toContain('<script>window.__pwned=1</script>');
    expect(requests.filter((u) => !u.startsWith('file:'))).toEqual([]);
    expect(problems).toEqual([]);

    const shot = join(ARTIFACTS, 'report-html.png');
    await page.screenshot({ path: shot, fullPage: true });
    console.log(`screenshot: ${shot}`);
    expect(existsSync(shot)).toBe(true);
    await page.close();
  }, 60_000);

  test("junit.xml parses with the browser's XML parser: one testcase per check", async () => {
    const dir = join(ARTIFACTS, 'html-e2e');
    const report = fixtureReport({ aborted: { code: 'UNREACHABLE', message: 'gone <&>' } });
    writeReport(dir, report, []);
    const page = await context.newPage();
    await page.goto(pathToFileURL(join(dir, 'report.html')).href);
    const xml = readFileSync(join(dir, 'junit.xml'), 'utf8');
    const parsed = await page.evaluate((text) => {
      const g = globalThis as unknown as {
        DOMParser: new () => {
          parseFromString(t: string, type: string): { getElementsByTagName(n: string): { length: number } };
        };
      };
      const doc = new g.DOMParser().parseFromString(text, 'application/xml');
      return {
        errors: doc.getElementsByTagName('parsererror').length,
        cases: doc.getElementsByTagName('testcase').length,
        failures: doc.getElementsByTagName('failure').length,
        errorEls: doc.getElementsByTagName('error').length,
      };
    }, xml);
    expect(parsed).toEqual({ errors: 0, cases: report.checks.length + 1, failures: 1, errorEls: 1 });
    const broken = await page.evaluate(
      (text) => {
        const g = globalThis as unknown as {
          DOMParser: new () => {
            parseFromString(t: string, type: string): { getElementsByTagName(n: string): { length: number } };
          };
        };
        return new g.DOMParser().parseFromString(text, 'application/xml').getElementsByTagName('parsererror').length;
      },
      xml.replace('</testsuite>', ''),
    );
    expect(broken).toBeGreaterThan(0);
    await page.close();
  }, 30_000);

  test('a passing report renders green', async () => {
    const passing = fixtureReport({ series: {} });
    passing.checks = passing.checks.filter((c) => c.outcome === 'pass'); // a skipped MUST is not a pass
    const dir = join(ARTIFACTS, 'html-e2e-pass');
    writeReport(dir, passing, []);
    const page = await context.newPage();
    await page.goto(pathToFileURL(join(dir, 'report.html')).href);
    expect(await page.locator('#verdict').getAttribute('data-verdict')).toBe('pass');
    const colour = await page
      .locator('#verdict')
      .evaluate(
        (el) =>
          (globalThis as unknown as { getComputedStyle(e: unknown): { backgroundColor: string } }).getComputedStyle(el)
            .backgroundColor,
      );
    expect(colour).toBe('rgb(31, 122, 61)');
    await page.close();
  }, 30_000);
});
