// `petcert serve [--host 127.0.0.1] [--port N] [--key KEY=PLAN ...] [--plans FILE] [--max-pets N]`
import type { Command } from 'commander';
import { ConfigError } from '../core/errors.ts';
import { loadPlansFile } from '../spec/plans-file.ts';
import { resolvePlan, type PlanTable } from '../spec/plans.ts';
import { DEFAULT_MAX_PETS } from '../reference/store.ts';
import { KEY_PATTERN } from '../reference/keys.ts';
import { keyPool, parseKeyPool } from '../reference/key-pool.ts';
import { writeFileSync } from 'node:fs';
import { keysFileText } from '../load/capacity/keys-file.ts';
import { listen, type RunningServer } from '../reference/server.ts';

export interface ServeFlags {
  host: string;
  port: string;
  key: string[];
  plans?: string;
  maxPets: string;
  keyPool?: string;
  keyPoolFile?: string;
}

export interface ServeConfig {
  host: string;
  port: number;
  keys: Record<string, string> | undefined;
  plans: PlanTable;
  maxPets: number;
  /** --key-pool: print (or write to keyPoolFile) the keys as a key file */
  keyPool: boolean;
  keyPoolFile?: string;
}

function integerFlag(raw: string, flag: string, min: number, max: number): number {
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max)
    throw new ConfigError(`must be an integer from ${min} to ${max}, got ${JSON.stringify(raw)}`, flag);
  return Number(raw);
}

/** The plan's canonical name; a plan problem names the flag and the pair, not just "plan". */
function keyPlan(plans: PlanTable, plan: string, pair: string): string {
  try {
    return resolvePlan(plans, plan).name;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    throw new ConfigError(`${JSON.stringify(pair)}: ${error.message.replace(/^plan: /, '')}`, '--key');
  }
}

/** Flags → configuration; every problem is a ConfigError naming the flag (exit 2). */
export function serveConfig(flags: ServeFlags): ServeConfig {
  const plans = loadPlansFile(flags.plans);
  if (flags.host.trim() === '') throw new ConfigError('must not be empty', '--host');
  let keys: Record<string, string> | undefined;
  for (const pair of flags.key) {
    const eq = pair.lastIndexOf('=');
    const key = pair.slice(0, eq);
    const plan = pair.slice(eq + 1);
    if (eq <= 0 || plan === '') throw new ConfigError(`expected KEY=PLAN, got ${JSON.stringify(pair)}`, '--key');
    if (!KEY_PATTERN.test(key))
      throw new ConfigError(
        `key ${JSON.stringify(key)} has characters a Bearer token cannot carry (use A-Z a-z 0-9 - . _ ~ + /)`,
        '--key',
      );
    keys ??= {};
    if (key in keys) throw new ConfigError(`key given twice: ${key}`, '--key');
    keys[key] = keyPlan(plans, plan, pair);
  }
  if (flags.keyPool !== undefined) {
    for (const [key, plan] of Object.entries(keyPool(parseKeyPool(flags.keyPool, plans)))) (keys ??= {})[key] = plan;
  } else if (flags.keyPoolFile !== undefined) throw new ConfigError('needs --key-pool', '--key-pool-file');
  return {
    keyPool: flags.keyPool !== undefined,
    ...(flags.keyPoolFile !== undefined ? { keyPoolFile: flags.keyPoolFile } : {}),
    host: flags.host,
    port: integerFlag(flags.port, '--port', 0, 65535),
    keys,
    plans,
    maxPets: integerFlag(flags.maxPets, '--max-pets', 1, 10_000_000),
  };
}

export function describeServer(server: RunningServer, plans: PlanTable): string {
  const lines = [
    `Animal Store reference server listening on ${server.baseUrl}`,
    `windows: minute ${plans.windows.minuteSeconds} s, day ${plans.windows.daySeconds} s`,
    'API keys (Authorization: Bearer <key>):',
  ];
  for (const [key, planName] of Object.entries(server.keys)) {
    const plan = resolvePlan(plans, planName);
    lines.push(`  ${key}  plan=${plan.name}  ${plan.perMinute}/minute  ${plan.perDay}/day`);
  }
  return lines.join('\n');
}

/** A key pool is a key file (PLAN=KEY lines): written to --key-pool-file, or printed after the header. */
function describePool(server: RunningServer, plans: PlanTable, file: string | undefined): string {
  const text = keysFileText(Object.entries(server.keys).map(([key, plan]) => ({ plan, key })));
  if (file !== undefined) writeFileSync(file, text);
  const counts = new Map<string, number>();
  for (const plan of Object.values(server.keys)) counts.set(plan, (counts.get(plan) ?? 0) + 1);
  return [
    `Animal Store reference server listening on ${server.baseUrl}`,
    `windows: minute ${plans.windows.minuteSeconds} s, day ${plans.windows.daySeconds} s`,
    `API keys: ${[...counts].map(([p, n]) => `${n} ${p}`).join(', ')}${file === undefined ? ' (key file below)' : ` written to ${file}`}`,
    ...(file === undefined ? [text.trimEnd()] : []),
  ].join('\n');
}

async function serve(flags: ServeFlags): Promise<void> {
  const config = serveConfig(flags);
  let server: RunningServer;
  try {
    server = await listen({
      host: config.host,
      port: config.port,
      plans: config.plans,
      maxPets: config.maxPets,
      ...(config.keys ? { keys: config.keys } : {}),
    });
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    const code = (error as NodeJS.ErrnoException).code ?? '';
    throw new ConfigError(`cannot listen on ${config.host}:${config.port} (${code || String(error)})`, '--host/--port');
  }
  console.log(
    config.keyPool ? describePool(server, config.plans, config.keyPoolFile) : describeServer(server, config.plans),
  );
  const stop = (signal: string) => {
    console.log(`${signal}: closing`);
    void server.close();
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
}

const collect = (value: string, previous: string[]) => [...previous, value];

export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('Run the reference Animal Store server (base path /v1)')
    .option('--host <host>', 'interface to listen on', '127.0.0.1')
    .option('--port <n>', 'port (0 picks a free one)', '8080')
    .option('--key <KEY=PLAN>', 'an API key and its plan (repeatable; default: one random key per plan)', collect, [])
    .option('--plans <file>', 'plans file: { "windows": {...}, "plans": {...} } (spec figures by default)')
    .option(
      '--key-pool <plan=n,...>',
      'many keys per plan for capacity runs, e.g. free=2000,pro=300 (printed, or written with --key-pool-file)',
    )
    .option('--key-pool-file <file>', 'write the key pool as a key file (PLAN=KEY lines) instead of printing it')
    .option('--max-pets <n>', 'pets kept in memory; the oldest is evicted beyond it', String(DEFAULT_MAX_PETS))
    .addHelpText('after', '\nExample:\n  petcert serve --port 8080 --key demo=free --plans plans.json')
    .action(serve);
}
