// e2e (docs/decisions/007): petcert quota against this real-library server, its faulty twins and its stock headers
// (rows: all-proofs.ts).
import { proofSuite } from './proof-suite.ts';

proofSuite('fastify 5 + @fastify/rate-limit 11 (registered once per quota, memory store)', [
  'fastify',
  'fastify overAdmit',
  'fastify wrongRemaining',
  'fastify noRetryAfter',
  'fastify noDay',
  'fastify-stock',
]);
