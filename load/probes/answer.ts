// One answer of a key as the Remaining ceiling reads it (remaining-ceiling.ts): apart, so the probes' context can name it without importing the rules.
import type { Sample } from '../../report/model.ts';

/** An admitted answer of this key: a sample (`t`: server ms), or one sent before the probes (no time known). */
export type Answer = Omit<Sample, 't'> & { t?: number };
