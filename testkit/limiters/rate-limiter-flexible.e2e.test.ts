// e2e (docs/decisions/007): petcert quota against this real-library server and its faulty twins (rows: all-proofs.ts).
import { proofSuite } from './proof-suite.ts';

proofSuite('rate-limiter-flexible 11 (RateLimiterMemory, headers as its README shows)', [
  'rlf',
  'rlf overAdmit',
  'rlf wrongRemaining',
  'rlf noRetryAfter',
  'rlf noDay',
]);
