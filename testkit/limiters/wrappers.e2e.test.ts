// e2e (issue 15 §2): petcert quota against this real-library server and its faulty twins (rows: all-proofs.ts).
import { proofSuite } from './proof-suite.ts';

proofSuite('servers behind latency and clock skew', [
  'erl skew -40s',
  'token-bucket latency 150ms',
  // 10 of 10 in bench:limiters twice on main (6740792, 3f72908); was 0 of 10 (limiters-status.md).
  'erl latency 150ms',
  // Review R3: 5 of 5 by hand on main + 53ccd9e (machine loaded); its reading of "whole after the 429" no longer fails buckets.
  'erl latency 150ms overAdmit',
]);
