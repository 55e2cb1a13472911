// e2e (issue 15 §2): petcert quota against this real-library server and its faulty twins (rows: all-proofs.ts).
import { proofSuite } from './proof-suite.ts';

proofSuite(
  'servers behind latency and clock skew',
  [
    'erl skew -40s',
    'token-bucket latency 150ms',
  ],
);
