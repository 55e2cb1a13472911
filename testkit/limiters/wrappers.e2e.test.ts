// e2e (docs/decisions/007): petcert quota against this real-library server and its faulty twins (rows: all-proofs.ts).
import { proofSuite } from './proof-suite.ts';

proofSuite('servers behind latency and clock skew', [
  'erl skew -40s',
  'token-bucket latency 150ms',
  'erl latency 150ms',
  // Judged exactly only on evidence no bucket gives: a correct bucket is never failed by the reading "whole after the 429".
  'erl latency 150ms overAdmit',
]);
