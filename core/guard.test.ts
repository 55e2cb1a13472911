import { describe, expect, it } from 'vitest';
import { counter } from './count.ts';
import { TransportError, UnreachableError } from './errors.ts';
import type { Exchange, HttpRequest, Send } from './exchange.ts';
import { guard } from './guard.ts';

const request: HttpRequest = { method: 'GET', url: 'http://127.0.0.1:1/v1/pets', headers: {} };
const ok = (req: HttpRequest): Exchange => ({
  request: req,
  response: { status: 500, headers: {}, body: '' },
  sentAt: 0,
  durationMs: 1,
});

function scripted(outcomes: Array<'ok' | 'fail'>): Send {
  let i = 0;
  return async (req) => {
    const outcome = outcomes[i++] ?? 'ok';
    if (outcome === 'fail') throw new TransportError('CONNECTION_REFUSED', 'refused');
    return ok(req);
  };
}

describe('guard', () => {
  it('gives up after consecutive transport failures, and stays given up', async () => {
    const send = guard(3)(scripted(['fail', 'fail', 'fail', 'ok']));
    await expect(send(request)).rejects.toBeInstanceOf(TransportError);
    await expect(send(request)).rejects.toBeInstanceOf(TransportError);
    await expect(send(request)).rejects.toBeInstanceOf(UnreachableError);
    await expect(send(request)).rejects.toThrow(/3 consecutive requests got no response \(last: refused\)/);
  });

  it('resets the count on any HTTP response, even a 5xx', async () => {
    const send = guard(3)(scripted(['fail', 'fail', 'ok', 'fail', 'fail', 'ok']));
    const statuses: Array<number | string> = [];
    for (let i = 0; i < 6; i++)
      statuses.push(
        await send(request).then(
          (e) => e.response.status,
          (e: Error) => e.name,
        ),
      );
    expect(statuses).toEqual(['TransportError', 'TransportError', 500, 'TransportError', 'TransportError', 500]);
  });
});

describe('counter', () => {
  it('counts answered and failed requests', async () => {
    const counted = counter();
    const send = counted.layer(scripted(['ok', 'fail', 'ok']));
    await send(request);
    await send(request).catch(() => undefined);
    await send(request);
    expect(counted.count()).toBe(3);
  });
});
