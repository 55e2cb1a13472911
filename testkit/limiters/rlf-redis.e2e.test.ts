// e2e (issue 27 §3): petcert quota against rate-limiter-flexible's RateLimiterRedis on Debian's
// redis-server, two replicas behind nginx round-robin (its own Date), X-RateLimit-Reset rounded down,
// and its faulty twins (rows: all-proofs.ts). Without redis-server or nginx the file is skipped locally
// (the title says why) and fails in CI.
import { proofSuite } from './proof-suite.ts';
import { REDIS_SKIP } from './redis.ts';

proofSuite(
  'rate-limiter-flexible 11 RateLimiterRedis, two replicas behind nginx',
  ['rlf-redis', 'rlf-redis overAdmit', 'rlf-redis wrongRemaining', 'rlf-redis noRetryAfter', 'rlf-redis noDay'],
  REDIS_SKIP,
);
