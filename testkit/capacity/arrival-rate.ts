// Arrival rate over the last second, for the test kits that change behaviour above a configured
// rate. Bounded: it keeps only the arrivals of the last second.
export interface ArrivalRate {
  /** Records one arrival at `nowMs` and returns the arrivals within the last second, this one included. */
  arrive(nowMs: number): number;
}

export function arrivalRate(): ArrivalRate {
  const times: number[] = [];
  let head = 0;
  return {
    arrive(nowMs) {
      times.push(nowMs);
      while (head < times.length && times[head]! <= nowMs - 1000) head++;
      if (head > 4096) times.splice(0, head), (head = 0);
      return times.length - head;
    },
  };
}
