// e2e (docs/decisions/007): petcert quota against Go services built from the module proxy (go/setup.sh) and
// the faulty twins (rows: all-proofs.ts). chi + go-chi/httprate: its own sliding window counter fails
// quota.rejected.next-window; each twin fails its own rule as well. chi + sethvargo/go-limiter's middleware:
// its Reset, an RFC 1123 date, fails quota.headers.valid and nothing else; its dated Retry-After is held.
import { proofSuite } from './proof-suite.ts';
import { GO_SKIP } from './go.ts';

proofSuite(
  'chi + go-chi/httprate or sethvargo/go-limiter (Go)',
  ['httprate', 'httprate wrongRemaining', 'httprate noRetryAfter', 'httprate noDay', 'go-limiter'],
  GO_SKIP,
);
