// Generator honesty: before a breaking rate is trusted, the same bundle runs the top step against a
// trivial local target (answers at once, no limiter). What k6 reaches there is this machine's
// generator limit; a step above it is never blamed on the target.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CALIBRATION_TIMEOUT_MS } from './bound.ts';
import type { CapacityDocument } from './document.ts';
import { runCapacityK6, type CapacityK6 } from './k6-run.ts';
import { ACHIEVED_SHARE, type Generator } from './verdict.ts';

export interface Calibration extends Generator {
  offeredRate: number;
  achievedRate: number;
  dropped: number;
}

const PET = JSON.stringify({ id: 1, name: 'petcert-calibration', categoryId: 1, status: 'available' });

/** A target that costs nearly nothing: the generator, not it, is what saturates. */
export async function trivialTarget(): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const body = req.method === 'POST' ? PET : req.url?.startsWith('/v1/pets/') ? PET : '[]';
      res.writeHead(req.method === 'POST' ? 201 : 200, {
        'content-type': 'application/json',
        'x-ratelimit-limit': '1000000',
        'x-ratelimit-remaining': '999999',
        'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + 60),
      });
      res.end(body);
    });
  });
  server.keepAliveTimeout = 10_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The document's top step against the trivial target for `seconds`, no canaries: the generator's limit. */
export async function calibrate(k6: CapacityK6, doc: CapacityDocument, seconds: number): Promise<Calibration> {
  const target = await trivialTarget();
  try {
    const top = doc.plan.steps[doc.plan.steps.length - 1]!.index;
    const settings = { ...doc.settings, stepSeconds: seconds, canaries: false };
    const trial = { ...doc, baseUrl: target.baseUrl, settings, plan: { ...doc.plan, canaries: [] }, step: top };
    // k6's own outputs record the target's run, not this trial.
    const s = (await runCapacityK6({ ...k6, outputs: [] }, trial, CALIBRATION_TIMEOUT_MS)).steps[0]!;
    const achievedRate = s.requests / s.seconds;
    const keptUp = achievedRate >= ACHIEVED_SHARE * s.offeredRate && s.dropped <= 0.01 * s.offeredRate * s.seconds;
    return { limit: achievedRate, atLeast: keptUp, offeredRate: s.offeredRate, achievedRate, dropped: s.dropped };
  } finally {
    await target.close();
  }
}
