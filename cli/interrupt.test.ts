import { EventEmitter } from 'node:events';
import { describe, expect, test } from 'vitest';
import { fixtureReport } from '../testkit/report/fixtures.ts';
import { interruptible, markInterrupted, SIGNAL_EXIT, watchInterrupts } from './interrupt.ts';

function fakeProcess() {
  const emitter = new EventEmitter();
  const exits: number[] = [];
  return {
    source: Object.assign(emitter, { exit: (code: number): never => (exits.push(code), undefined as never) }),
    exits,
  };
}

describe('watchInterrupts', () => {
  test('the first signal aborts and says what happens; the second exits at once with 128 + its number', () => {
    const { source, exits } = fakeProcess();
    const said: string[] = [];
    const i = watchInterrupts((l) => said.push(l), source);
    expect(i.signal.aborted).toBe(false);
    source.emit('SIGTERM');
    expect(i.signal.aborted).toBe(true);
    expect(i.caught()).toBe('SIGTERM');
    expect(said.join('\n')).toMatch(/SIGTERM: stopping .* SIGTERM again exits at once/);
    expect(exits).toEqual([]);
    source.emit('SIGINT');
    expect(exits).toEqual([SIGNAL_EXIT.SIGINT]);
    i.dispose();
    expect(source.listenerCount('SIGINT') + source.listenerCount('SIGTERM')).toBe(0);
  });
});

describe('markInterrupted and interruptible', () => {
  test('the report says INTERRUPTED, keeping what else stopped the engine meanwhile', () => {
    const marked = markInterrupted(fixtureReport({ aborted: { code: 'UNREACHABLE', message: 'closed' } }), 'SIGINT');
    expect(marked.aborted).toEqual({
      code: 'INTERRUPTED',
      message: expect.stringMatching(/^interrupted by SIGINT: .*never a pass.*\(UNREACHABLE: closed\)$/),
    });
  });

  test('an interrupted run is published marked and exits 130/143; an uninterrupted one keeps its verdict code', async () => {
    const published: Array<string | undefined> = [];
    const publish = (r: ReturnType<typeof fixtureReport>) => (published.push(r.aborted?.code), 0);
    expect(
      await interruptible(
        () => {},
        async () => fixtureReport(),
        publish,
      ),
    ).toBe(0);
    // A real signal through process: the run notices it and ends.
    const run = interruptible(
      () => {},
      async (signal) => {
        process.emit('SIGINT');
        expect(signal.aborted).toBe(true);
        return fixtureReport();
      },
      publish,
    );
    expect(await run).toBe(130);
    expect(published).toEqual([undefined, 'INTERRUPTED']);
  });
});
