import { describe, expect, it } from 'vitest';
import type { Sample } from '../../report/model.ts';
import { earlierWindowWithRoom } from './window-edge.ts';

// Server ms = local ms here; the window before ends (Reset) at 10 s.
const latestLocalAt = (serverMs: number): number => serverMs;
const before: Sample = { t: 9_900, status: 200, limit: 20, remaining: 1, reset: 10 };

describe('earlierWindowWithRoom: a Remaining = Limit answer that may describe a later window than the one that counted it', () => {
  it('finds the window with room that had not ended when the request was sent (slowapi at a window edge)', () => {
    expect(earlierWindowWithRoom({ sentLocal: 9_950, limit: 20, reset: 11.002 }, [before], latestLocalAt)).toBe(before);
  });
  it('none when the request went out after that window ended: the request was not counted (a fault)', () => {
    expect(
      earlierWindowWithRoom({ sentLocal: 10_040, limit: 20, reset: 12.04 }, [before], latestLocalAt),
    ).toBeUndefined();
  });
  it('none when that window was spent (Remaining 0), of another quota, refused, or not earlier', () => {
    const answer = { sentLocal: 9_950, limit: 20, reset: 11.002 };
    expect(earlierWindowWithRoom(answer, [{ ...before, remaining: 0 }], latestLocalAt)).toBeUndefined();
    expect(earlierWindowWithRoom(answer, [{ ...before, limit: 100 }], latestLocalAt)).toBeUndefined();
    expect(earlierWindowWithRoom(answer, [{ ...before, status: 429 }], latestLocalAt)).toBeUndefined();
    expect(earlierWindowWithRoom({ ...answer, reset: 10 }, [before], latestLocalAt)).toBeUndefined();
  });
  it('never its own sample, and none before the server clock is known', () => {
    expect(
      earlierWindowWithRoom({ sentLocal: 9_950, limit: 20, reset: 11.002, sample: before }, [before], latestLocalAt),
    ).toBeUndefined();
    expect(
      earlierWindowWithRoom({ sentLocal: 9_950, limit: 20, reset: 11.002 }, [before], () => undefined),
    ).toBeUndefined();
  });
});
