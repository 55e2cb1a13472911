// The limiter models the probes tell apart, by name: apart from model.ts, so the reading (reading.ts) can
// name them without importing the recognisers that ask it.
export type LimiterModelName = 'fixed' | 'sliding-log' | 'sliding-counter' | 'token-bucket' | 'unknown';
