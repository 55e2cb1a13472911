// The readings of "N requests per window" petcert accepts (spec/GAPS.md "Readings"), as data: what each lets
// a limiter admit within one window's length, and when it lets one refuse. A rule fails only on evidence
// that no accepted reading allows, and its finding names the readings it was judged under.
import type { DeclaredModel } from '../../../spec/plans.ts';

export type ReadingId = 'fixed' | 'rolling' | 'bucket';

export interface AcceptedReading {
  id: ReadingId;
  /** The reading in a few words, as spec/GAPS.md "Readings" names it (readings.test.ts checks it does). */
  title: string;
  /**
   * For every limiter, or only where the vendor declares its plans are rates with a burst (`--limiter-model
   * token-bucket`): undeclared, what only this reading admits fails under the others.
   */
  accepted: 'always' | 'declared';
  /** Most it admits, from a full allowance, within a span of one window's length that crosses none of its window ends. */
  mostWithinWindow(figure: number): number;
  /** It gives back what it admitted before a window's length has passed (more than the figure within one: figures above 1). */
  refillsWithinWindow: boolean;
  /** Whether it may refuse a request once `within` of the key's requests reached the limiter in the window before it. */
  mayRefuse(figure: number, within: number): boolean;
  /** How a refusal's finding names it. */
  inRefusal: string;
}

/** All three refuse only once the figure reached the limiter within a window: a bucket that took k < N over it holds N − k. */
const onceFull = (figure: number, within: number): boolean => within >= figure;

export const READINGS: readonly AcceptedReading[] = [
  {
    id: 'fixed',
    title: "fixed windows at the phase the server's own Reset declares",
    accepted: 'always',
    mostWithinWindow: (figure) => figure,
    refillsWithinWindow: false,
    mayRefuse: onceFull,
    inRefusal: 'fixed at any phase',
  },
  {
    id: 'rolling',
    title: "a rolling window: at most N in any span of one window's length",
    accepted: 'always',
    mostWithinWindow: (figure) => figure,
    refillsWithinWindow: false,
    mayRefuse: onceFull,
    inRefusal: 'rolling',
  },
  {
    id: 'bucket',
    title: 'a token bucket of capacity N refilled at N per window',
    accepted: 'declared',
    // The whole bucket at once, and all but one of what it refills before the window's length has passed.
    mostWithinWindow: (figure) => 2 * figure - 1,
    refillsWithinWindow: true,
    mayRefuse: onceFull,
    inRefusal: 'a bucket refilled over the window',
  },
];

export const readingById = (id: ReadingId): AcceptedReading => READINGS.find((r) => r.id === id)!;

/** The readings a run judges under: those accepted always, and the declared ones once the vendor declares its model. */
export const acceptedReadings = (declared: DeclaredModel | undefined): AcceptedReading[] =>
  READINGS.filter((r) => r.accepted === 'always' || declared !== undefined);

/** "a, b, or c". */
const orList = (items: readonly string[]): string =>
  items.length < 2 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')}, or ${items[items.length - 1]}`;

/**
 * A refusal with `within` of the key's requests in the window before it, judged under every reading: the
 * finding's clause when none allows it ("no window of 20 per 2 s refuses it, fixed at any phase, rolling,
 * or a bucket refilled over the window"), else undefined.
 */
export function refusalOutsideEveryReading(figure: number, within: number, windowS: number): string | undefined {
  if (READINGS.some((r) => r.mayRefuse(figure, within))) return undefined;
  return `no window of ${figure} per ${windowS} s refuses it, ${orList(READINGS.map((r) => r.inRefusal))}`;
}
