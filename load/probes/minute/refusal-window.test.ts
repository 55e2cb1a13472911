import { describe, expect, it } from 'vitest';
import type { Observation } from '../observation.ts';
import { requestsWithinWindow } from './refusal-window.ts';

/** A request sent at `sent` and answered at `answered` (our clock, ms): only the times matter here. */
const at = (sent: number, answered: number, status = 200): Observation =>
  ({ sentLocal: sent, receivedLocal: answered, status, admitted: status < 300 }) as Observation;

describe('requestsWithinWindow: what can have reached the server within a window before a refusal', () => {
  const count = Array.from({ length: 20 }, (_, i) => at(i, i + 10));
  const refused = at(25, 30, 429);

  it('a count answered a whole window before the refusal was sent is out of it', () => {
    const refusal = at(2_100, 2_110, 429);
    const next = Array.from({ length: 15 }, (_, i) => at(2_000 + i, 2_050 + i));
    expect(requestsWithinWindow([...count, refused, ...next, refusal], refusal, 2_000)).toBe(15);
  });

  it('one answered less than a window before the refusal was sent may be in it, refused ones too', () => {
    const refusal = at(2_025, 2_040, 429);
    // Answered after 20 (a window and the 5 ms clock margin before 2025): the count's last nine (21 to 29) and its 429 (30).
    expect(requestsWithinWindow([...count, refused, refusal], refusal, 2_000)).toBe(10);
  });

  it('a request sent again after no response counts once per try: the lost try may have reached the server', () => {
    const refusal = at(2_025, 2_040, 429);
    const retried = { ...at(2_000, 2_020), ex: { tries: 3 } } as Observation;
    expect(requestsWithinWindow([...count, refused, retried, refusal], refusal, 2_000)).toBe(13);
  });

  it('requests before the first known one may share the window: undefined', () => {
    const refusal = at(1_500, 1_510, 429);
    expect(requestsWithinWindow([...count, refusal], refusal, 2_000)).toBeUndefined();
  });
});
