// e2e (docs/decisions/007): petcert quota against this real-library server and its faulty twins (rows: all-proofs.ts).
import { proofSuite } from './proof-suite.ts';

proofSuite('express-rate-limit 8, minute then day limiter', [
  'erl',
  'erl overAdmit',
  'erl wrongRemaining',
  'erl noRetryAfter',
  'erl noDay',
]);
