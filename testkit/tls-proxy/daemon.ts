// A program the tests start and stop (nginx, squid, tinyproxy): in the foreground, as a child of the
// test, ready once its port accepts connections, stopped by its own pid.
import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';

export interface Daemon {
  /** What it printed, for an assertion's message. */
  output(): string;
  stop(): Promise<void>;
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

async function waitForPorts(
  child: ChildProcess,
  ports: readonly number[],
  output: () => string,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (const port of ports) {
    while (!(await accepts(port))) {
      if (child.exitCode !== null)
        throw new Error(`exited with ${child.exitCode} before listening on ${port}:\n${output()}`);
      if (Date.now() > deadline) throw new Error(`not listening on ${port} after ${timeoutMs} ms:\n${output()}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

export async function startDaemon(
  name: string,
  command: string,
  args: readonly string[],
  ports: readonly number[],
  timeoutMs = 15_000,
): Promise<Daemon> {
  const child = spawn(command, [...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (out = (out + d).slice(-20_000)));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (out = (out + d).slice(-20_000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // A test process that dies without its afterAll must not leave the daemon listening.
  const orphanGuard = () => child.kill('SIGKILL');
  process.once('exit', orphanGuard);
  void exited.then(() => process.off('exit', orphanGuard));
  try {
    await waitForPorts(child, ports, () => out, timeoutMs);
  } catch (error) {
    child.kill('SIGKILL');
    throw new Error(`${name} ${(error as Error).message}`);
  }
  return {
    output: () => out,
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 3_000);
      await exited;
      clearTimeout(killer);
    },
  };
}
