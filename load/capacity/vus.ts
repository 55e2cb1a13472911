// How many VUs a step's scenario has. A VU waits on its response: rate × latency of them are busy, so it has
// the rate's worth (1 s of latency), all started before the step (pre-allocated and most alike): a VU started
// mid-step drops the iterations due meanwhile, and a step that drops them is generator-bound, which a loaded
// machine's slower answers make likely in a short step. An idle VU costs the generator little: a JS runtime of
// its own (k6 v2.2.0, a bare script: 41 MB RSS with 10 VUs, 130 MB with 1,000; the capacity bundle adds
// ≈ 0.05 MB of live heap each, README.md, 10,000 keys).
export const stepVUs = (rate: number, maxVus: number): number => Math.min(maxVus, Math.max(20, Math.ceil(rate)));
