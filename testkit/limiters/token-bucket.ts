// Express 5 + the `limiter` package's TokenBucket (a widely used token bucket for Node): per key a minute
// bucket (capacity the plan's minute figure, refilled continuously at that figure per minute) and a day
// bucket (likewise per day). Buckets start full (the library starts them empty: content is set, as its
// README's users do). Headers: metered.ts.
import { TokenBucket } from 'limiter';
import { serveApp, storeApp, type RunningService } from './store-app.ts';
import { meteredLimiters, type Meter, type MeteredOptions } from './metered.ts';

export function tokenBucketMeter(figure: number, lengthMs: number): Meter {
  const bucket = new TokenBucket({ bucketSize: figure, tokensPerInterval: figure, interval: lengthMs });
  bucket.content = figure;
  const rate = figure / lengthMs;
  const content = (): number => (bucket.drip(), bucket.content);
  return {
    room: () => content(),
    take: () => void bucket.tryRemoveTokens(1),
    fullAtMs: (now) => now + (figure - content()) / rate,
    oneAtMs: (now) => now + Math.max(0, 1 - content()) / rate,
  };
}

export function tokenBucketService(options: MeteredOptions): Promise<RunningService> {
  return serveApp(storeApp(options, meteredLimiters(options, tokenBucketMeter)), options.keys);
}
