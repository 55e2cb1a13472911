// e2e (issue 15 §2): petcert quota against this real-library server and its faulty twins (rows: all-proofs.ts).
import { proofSuite } from './proof-suite.ts';

proofSuite(
  'servers behind latency, clock skew and out-of-order answers',
  [
    'erl skew -40s',
    'erl out-of-order noDay',
  ],
);
