import { describe, expect, it } from 'vitest';
import { systemClock } from './clock.ts';

describe('systemClock', () => {
  // setTimeout's millisecond ticks and Date.now()'s do not line up: a plain timer of 7 ms may end 6 ms later
  // by Date.now(), and a 1,100 ms wait ending 1,099 ms later tells a fixed window from a sliding log wrongly.
  it('sleep(ms) never returns before now() advanced by ms', async () => {
    const short: number[] = [];
    for (let i = 0; i < 150; i++) {
      const spin = Date.now() + (i % 3); // start the wait at different phases of the millisecond
      while (Date.now() < spin);
      const t0 = systemClock.now();
      await systemClock.sleep(3);
      const elapsed = systemClock.now() - t0;
      if (elapsed < 3) short.push(elapsed);
    }
    expect(short).toEqual([]);
  });
});
