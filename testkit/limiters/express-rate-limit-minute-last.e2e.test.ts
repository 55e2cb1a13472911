// e2e (docs/decisions/007): petcert quota against this real-library server and its faulty twins (rows: all-proofs.ts).
import { proofSuite } from './proof-suite.ts';

proofSuite("express-rate-limit 8, day then minute limiter (the last one writes a 200's headers)", [
  'erl-minute-last',
  'erl-minute-last overAdmit',
  'erl-minute-last noRetryAfter',
  'erl-minute-last noDay',
]);
