// e2e (docs/decisions/007): petcert quota against this real-library server and its faulty twins (rows: all-proofs.ts).
import { proofSuite } from './proof-suite.ts';

proofSuite("the limiter package's TokenBucket", [
  'token-bucket',
  'token-bucket overAdmit',
  'token-bucket wrongRemaining',
  'token-bucket noRetryAfter',
  'token-bucket noDay',
  'token-bucket undeclared',
]);
