// How many VUs a step's scenario starts with and may grow to. A VU waits on its response: rate ×
// latency of them are busy. Pre-allocated for 100 ms (50 ms dropped iterations on a loaded machine
// while k6 started VUs mid-step: petcert's own shortfall), up to 1 s; more idle VUs only cost the
// generator (each is a JS runtime of its own: with the capacity bundle ≈ 0.05 MB more live heap than a
// bare script's, idle, and Go's heap grows to twice that; README.md, 10,000 keys).
export const preAllocatedVUs = (rate: number, maxVus: number): number => Math.min(maxVus, Math.ceil(rate * 0.1) + 5);
export const maxVUsOf = (rate: number, maxVus: number): number => Math.min(maxVus, Math.max(20, Math.ceil(rate)));
