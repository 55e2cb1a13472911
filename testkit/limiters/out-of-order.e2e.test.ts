// e2e (docs/decisions/007): petcert quota against this real-library server and its faulty twins (rows: all-proofs.ts).
import { proofSuite } from './proof-suite.ts';

proofSuite('servers answering out of order (0–80 ms per answer), every limiter model', [
  'erl out-of-order',
  'rlf out-of-order',
  'token-bucket out-of-order',
  'gcra out-of-order',
  'erl out-of-order noDay',
]);
