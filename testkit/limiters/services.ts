// Every limiter service by name, for the e2e proofs, the repeat bench and `npx tsx testkit/limiters/serve.ts`.
import { erlService } from './express-rate-limit.ts';
import type { LimiterFault } from './faults.ts';
import { fastifyService } from './fastify-rate-limit.ts';
import { gcraService } from './gcra.ts';
import { rlfService } from './rate-limiter-flexible.ts';
import { rlfRedisService } from './rlf-redis.ts';
import type { RunningService, ServiceOptions } from './store-app.ts';
import { tokenBucketService } from './token-bucket.ts';
import { tokenBucketTwiceService } from './buckets-twice.ts';

export const NODE_SERVICES = {
  /** express-rate-limit, minute then day limiter (the common setup: a 200 reports the day). */
  erl: (o: ServiceOptions, fault?: LimiterFault) => erlService({ ...o, order: 'minute-day', fault }),
  /** express-rate-limit, day then minute limiter (the last middleware, the minute, writes a 200's headers). */
  'erl-minute-last': (o: ServiceOptions, fault?: LimiterFault) => erlService({ ...o, order: 'day-minute', fault }),
  /** rate-limiter-flexible RateLimiterMemory, headers as its README shows. */
  rlf: (o: ServiceOptions, fault?: LimiterFault) => rlfService({ ...o, fault }),
  /** rate-limiter-flexible RateLimiterRedis (redis-server), two replicas behind nginx round-robin, Reset rounded down. */
  'rlf-redis': (o: ServiceOptions, fault?: LimiterFault) => rlfRedisService({ ...o, fault }),
  /** the `limiter` package's TokenBucket. */
  'token-bucket': (o: ServiceOptions, fault?: LimiterFault) => tokenBucketService({ ...o, fault }),
  /** the `limiter` package's TokenBucket mounted once per quota, each writing its own headers (a 200 reports the day). */
  'token-bucket-twice': (o: ServiceOptions, fault?: LimiterFault) => tokenBucketTwiceService({ ...o, fault }),
  /** GCRA written here (no in-memory Node library exists). */
  gcra: (o: ServiceOptions, fault?: LimiterFault) => gcraService({ ...o, fault }),
  /** Fastify 5 + @fastify/rate-limit 11 registered per quota, stock headers: Reset in seconds to go (not §8.2). */
  'fastify-stock': (o: ServiceOptions, fault?: LimiterFault) => fastifyService({ ...o, reset: 'stock', fault }),
  /** the same with the team's fix: Reset rewritten in onSend to the window's end as a Unix timestamp. */
  fastify: (o: ServiceOptions, fault?: LimiterFault) => fastifyService({ ...o, reset: 'window-end', fault }),
} as const satisfies Record<string, (o: ServiceOptions, fault?: LimiterFault) => Promise<RunningService>>;

export type NodeServiceName = keyof typeof NODE_SERVICES;
export const isNodeService = (name: string): name is NodeServiceName => Object.hasOwn(NODE_SERVICES, name);
