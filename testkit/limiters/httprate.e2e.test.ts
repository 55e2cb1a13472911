// e2e (docs/decisions/007): petcert quota against chi + go-chi/httprate, a Go service built from the module
// proxy (go/setup.sh), and its faulty twins (rows: all-proofs.ts). httprate's own sliding window counter fails
// quota.rejected.next-window; each twin fails its own rule as well.
import { proofSuite } from './proof-suite.ts';
import { HTTPRATE_SKIP } from './go.ts';

proofSuite(
  'chi + go-chi/httprate (Go)',
  ['httprate', 'httprate wrongRemaining', 'httprate noRetryAfter', 'httprate noDay'],
  HTTPRATE_SKIP,
);
