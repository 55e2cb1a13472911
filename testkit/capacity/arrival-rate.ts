// Arrival rate over a trailing window (default 1 s), for the test kits that change behaviour above a
// configured rate. Bounded: it keeps only the arrivals of the window.
export interface ArrivalRate {
  /** Records one arrival at `nowMs` and returns the rate (requests/s) over the window, this one included. */
  arrive(nowMs: number): number;
}

export function arrivalRate(windowMs = 1000): ArrivalRate {
  const times: number[] = [];
  let head = 0;
  return {
    arrive(nowMs) {
      times.push(nowMs);
      while (head < times.length && times[head]! <= nowMs - windowMs) head++;
      if (head > 4096) (times.splice(0, head), (head = 0));
      return ((times.length - head) * 1000) / windowMs;
    },
  };
}
