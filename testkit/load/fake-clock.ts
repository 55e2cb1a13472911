// The product's virtual clock (core/virtual-clock.ts) under the name the tests know.
export { createVirtualClock as createFakeClock, type VirtualClock as FakeClock } from '../../core/virtual-clock.ts';
