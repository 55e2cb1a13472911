import { describe, expect, it } from 'vitest';
import { isAbsolutePath, replacedScenarios, reportDirProblem } from './guards.ts';

describe('replacedScenarios', () => {
  it('says nothing while the script’s scenarios run, and names the flags when k6 replaced them', () => {
    expect(replacedScenarios(['quota_minute'], ['quota_minute'])).toBeUndefined();
    expect(replacedScenarios(['quota_minute'], ['default'])).toMatch(
      /expected quota_minute; running default\): --vus, --iterations, --duration and --stage replace them \(since k6 v2\.1 --vus alone does\)/,
    );
  });
});

describe('reportDirProblem', () => {
  it('accepts an absolute folder k6 could not open as a file', () => {
    expect(
      reportDirProblem('/tmp/reports', `GoError: open() can't be used with directories, path: "/tmp/reports"`),
    ).toBeUndefined();
    expect(isAbsolutePath('C:\\reports')).toBe(true);
    expect(isAbsolutePath('C:/reports')).toBe(true);
  });
  it('refuses a relative path, a file, and a path that does not exist', () => {
    expect(reportDirProblem('reports', undefined)).toMatch(/^REPORT_DIR=reports is relative/);
    expect(reportDirProblem('/tmp/x.json', undefined)).toMatch(/is a file, not a folder/);
    expect(reportDirProblem('/tmp/none', 'GoError: stat /tmp/none: no such file or directory')).toMatch(
      /^REPORT_DIR=\/tmp\/none cannot be used: stat \/tmp\/none: no such file or directory \(k6 does not create folders/,
    );
  });
});
