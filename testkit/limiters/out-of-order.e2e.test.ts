// e2e (issue 15 §2): petcert quota against this real-library server and its faulty twins (rows: all-proofs.ts).
import { proofSuite } from './proof-suite.ts';

proofSuite('servers answering out of order (0–80 ms per answer), every limiter model (issue 15 §3)', [
  'erl out-of-order',
  'rlf out-of-order',
  'token-bucket out-of-order',
  'gcra out-of-order',
  'erl out-of-order noDay',
]);
