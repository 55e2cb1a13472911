import { expect, it } from 'vitest';
import { arrivalRate } from './arrival-rate.ts';

it('measures requests per second over its trailing window, forgetting older arrivals', () => {
  const one = arrivalRate();
  for (let t = 0; t < 1000; t += 10) one.arrive(t); // 100 in the first second
  expect(one.arrive(1000)).toBe(100); // t=0 left the window, t=1000 entered
  expect(one.arrive(5000)).toBe(1);
  const two = arrivalRate(2000);
  for (let t = 0; t < 2000; t += 20) two.arrive(t); // 50/s for 2 s
  expect(two.arrive(2000)).toBe(50);
});
