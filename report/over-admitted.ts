// The windows in which a key had more admitted than its plan's figure, whatever the reading its counts were
// judged under: a reader sees the figure exceeded even where a declared bucket's verdict passed it.
// Pure: from report.json's own series (server ms), subjects and plans.
import type { PlanTable } from '../spec/plans.ts';
import type { OverAdmitted, Sample, SeriesSubject } from './model.ts';

const admitted = (s: Sample): boolean => s.status >= 200 && s.status < 300;

/** One key's admitted answers, in server time, from every series of it. */
function admittedTimes(
  key: string,
  series: Record<string, Sample[]>,
  subjects: Record<string, SeriesSubject>,
): number[] {
  return Object.entries(series)
    .filter(([name]) => subjects[name] !== undefined && `${subjects[name]!.part ?? ''}/${subjects[name]!.key}` === key)
    .flatMap(([, samples]) => samples.filter(admitted).map((s) => s.t))
    .sort((a, b) => a - b);
}

/**
 * Windows over the figure: from each admitted answer, those within one window's length after it; one over
 * the figure is counted and the next begins after it (the windows counted do not overlap).
 */
export function windowsOver(
  times: readonly number[],
  figure: number,
  windowMs: number,
): Array<{ admitted: number; startMs: number; spanMs: number }> {
  const over: Array<{ admitted: number; startMs: number; spanMs: number }> = [];
  let i = 0;
  while (i < times.length) {
    let j = i;
    while (j < times.length && times[j]! - times[i]! < windowMs) j++;
    if (j - i > figure) {
      over.push({ admitted: j - i, startMs: times[i]!, spanMs: times[j - 1]! - times[i]! });
      i = j;
    } else i++;
  }
  return over;
}

/** Every window of every key in which more than the plan's figure were admitted (report.json `overAdmitted`). */
export function overAdmitted(
  series: Record<string, Sample[]>,
  subjects: Record<string, SeriesSubject>,
  table: PlanTable,
): OverAdmitted[] {
  const keys = new Map(Object.values(subjects).map((s) => [`${s.part ?? ''}/${s.key}`, s]));
  return [...keys].flatMap(([id, subject]) => {
    const figures = table.plans[subject.plan];
    if (!figures || figures.perMinute === null || figures.perDay === null) return [];
    const times = admittedTimes(id, series, subjects);
    const quotas = [
      ['minute', figures.perMinute, table.windows.minuteSeconds],
      ['day', figures.perDay, table.windows.daySeconds],
    ] as const;
    return quotas.flatMap(([quota, figure, seconds]) =>
      windowsOver(times, figure, seconds * 1000).map((w) => ({
        quota,
        plan: subject.plan,
        key: subject.key,
        figure,
        ...w,
      })),
    );
  });
}

/** One window as every rendering says it: "free, day: 103 admitted within 36.6 s (the plan's figure 60)". */
export const overAdmittedText = (o: OverAdmitted): string =>
  `${o.key}, ${o.quota}: ${o.admitted} admitted within ${(o.spanMs / 1000).toFixed(1)} s (the plan's figure ${o.figure})`;
