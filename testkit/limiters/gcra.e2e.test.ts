// e2e (docs/decisions/007): petcert quota against this real-library server and its faulty twins (rows: all-proofs.ts).
import { proofSuite } from './proof-suite.ts';

proofSuite('GCRA (written here: no in-memory Node GCRA package)', [
  'gcra',
  'gcra overAdmit',
  'gcra wrongRemaining',
  'gcra noRetryAfter',
  'gcra noDay',
  'gcra undeclared',
]);
