// Every documented option and example runs (docs/decisions/009). Each command line the documentation shows
// (--help examples, README/docs shell blocks, the GitHub Actions workflow, read by testkit/cli/
// documented.ts) runs through bash, as a user pastes it, against the reference server; the example
// config's every target is certified, and it must use every field petcert.config.json has. Keys come
// from environment variables as documented. Only what a user cannot paste on one machine is changed:
// host names become the loopback server, and a compressed plans file keeps every quota window short.
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { listen, type RunningServer } from '../reference/index.ts';
import { keyPool, parseKeyPool } from '../reference/key-pool.ts';
import { keysFileText } from '../load/capacity/keys-file.ts';
import { parsePlansFile, specPlanTable } from '../spec/plans.ts';
import { documentedExamples, ROOT, type Example } from '../testkit/cli/documented.ts';
import { capacityBed, eachK6 } from '../testkit/capacity/k6.ts';
import { CONFIG_FIELDS, KEY_FIELDS, TARGET_FIELDS } from './config.ts';

const BIN = join(ROOT, 'bin/petcert.js');
const EXAMPLE_CONFIG = join(ROOT, 'examples/petcert.config.example.json');
/**
 * One-second minutes, and four-second days for a day probe in seconds: a wait may last a day plus the Date
 * slack, and on a loaded machine a burst's wait for a fresh minute can take several minutes' length. A quota
 * probe answers perMinute + 2 requests, and a burst twice perMinute, inside one minute window: each figure is
 * one a loaded 2-core machine answers in half a second with other test files and a CPU hog beside it.
 * Conform's budgets pace through the windows at these rates.
 */
const PLANS = {
  windows: { minuteSeconds: 1, daySeconds: 4 },
  plans: {
    free: { perMinute: 50, perDay: 200 },
    pro: { perMinute: 60, perDay: 240 },
    business: { perMinute: 70, perDay: 280 },
    enterprise: { perMinute: 80, perDay: 320 },
  },
};
/** What is not run here, and where it is proven instead. Exact lines: a new example is run, or added here on purpose. */
const NOT_RUN: Record<string, string> = {
  'petcert quota --rejudge reports/latest/journal.jsonl.gz --report-dir rejudged':
    'needs the journal of a quota run in latest/, which any run finishing beside it replaces: cli/quota-rejudge.e2e.test.ts records a journal and re-judges it',
  'petcert capacity merge runner-*.log':
    "needs the logs of k6-operator runners: cli/capacity-merge.e2e.test.ts merges real runners' logs",
};
/** Capacity examples that load the target: run under every pinned k6 (below), steps shortened. */
const LOADS = (e: Example) => /^petcert capacity (?!merge)/.test(e.shell) && !/--emit-testrun/.test(e.shell);
/**
 * Appended to a load example so it ends in seconds (commander: the last flag wins): two 2-second steps,
 * no calibration, and no canaries, which need a minute window's worth of step (their own e2e proves them).
 */
const SHORT_STEPS = '--steps 2 --step-seconds 2 --no-calibrate --no-canaries';

/**
 * Examples that end INCOMPLETE (exit 4) as documented beside them: a MUST check they leave unjudged on
 * purpose (never a PASS: docs/decisions/001). Exact lines, each with why; the run must say INCOMPLETE and a fix.
 */
const INCOMPLETE_BY_DESIGN: Record<string, string> = {
  'petcert conform --base-url https://staging.example.com/v1 --api-key env:PETCERT_API_KEY':
    'no plan given: X-RateLimit-Limit is not judged',
  'petcert conform --base-url https://api.example.com/shop/v1 --key free=env:PETCERT_FREE_KEY --category-id 7 --fail-on should':
    'a fixed category leaves int64 exactness unjudged',
  "petcert conform --base-url http://127.0.0.1:8080/v1 --key free=env:PETCERT_FREE_KEY --case 'NewPet.name:type=null'":
    'a replay runs one case, not the other checks',
  'petcert certify --target production --allow-production':
    "the example's production target has one key (isolation needs two) and a conform key of no plan (Limit not judged)",
};

const work = mkdtempSync(join(tmpdir(), 'petcert-documented-'));
const configured = join(work, 'configured');
const bare = join(work, 'bare');
const examples = documentedExamples();
let server: RunningServer;
let poolServer: RunningServer;

/** A plan given through a variable (`--key "$PLAN_VAR=env:KEY_VAR"`): the test sets it to this plan. */
const PLAN_OF_VARIABLES = 'free';
/** Variables that hold a plan name, not a key. */
const planVariables = (shell: string): string[] =>
  [...shell.matchAll(/\$\{?([A-Z_][A-Z0-9_]*)\}?=env:/g)].map((m) => m[1]!);

const planOf = (name: string, shell: string): string => {
  const given = new RegExp(`(\\$\\{?)?(\\w+)\\}?=env:${name}\\b`).exec(shell);
  const inLine = given && (given[1] ? PLAN_OF_VARIABLES : given[2]);
  type Target = { keys: Array<{ plan: string; env: string }>; conformKeyEnv?: string; conformKeyPlan?: string };
  const targets = Object.values(
    (JSON.parse(readFileSync(EXAMPLE_CONFIG, 'utf8')) as { targets: Record<string, Target> }).targets,
  );
  const configPlan =
    targets.flatMap((t) => t.keys).find((k) => k.env === name)?.plan ??
    targets.find((t) => t.conformKeyEnv === name)?.conformKeyPlan;
  const byName = ['free', 'pro', 'business', 'enterprise'].find((p) => name.toLowerCase().includes(p));
  return inLine ?? configPlan ?? byName ?? 'business';
};

/** Environment variables an example reads: `$NAME`, `env:NAME`, the workflow's env, and the config's keys. */
function variablesOf(e: Example): string[] {
  const config = [...readFileSync(EXAMPLE_CONFIG, 'utf8').matchAll(/"(?:env|conformKeyEnv)": "(\w+)"/g)].map(
    (m) => m[1]!,
  );
  const named = [...e.shell.matchAll(/\$\{?([A-Z_][A-Z0-9_]*)|env:([A-Za-z_]\w*)/g)].map((m) => m[1] ?? m[2]!);
  const notKeys = ['PETCERT_STAGING_URL', ...planVariables(e.shell)];
  return [...new Set([...named, ...(e.env ?? []), ...config])].filter((n) => !notKeys.includes(n));
}

/** A key per (example, variable): runs at once never share a key's quota. */
const keyFor = (i: number, name: string) => `pc-doc-${i}-${name.toLowerCase()}`;

function envOf(i: number, e: Example): Record<string, string> {
  const env: Record<string, string> = { NO_COLOR: '1', PETCERT_STAGING_URL: server.baseUrl };
  for (const name of variablesOf(e)) env[name] = keyFor(i, name);
  for (const name of planVariables(e.shell)) env[name] = PLAN_OF_VARIABLES;
  return env;
}

function keysOfAll(): Record<string, string> {
  const keys: Record<string, string> = {};
  examples.forEach((e, i) => {
    for (const name of variablesOf(e)) keys[keyFor(i, name)] = planOf(name, e.shell);
    // PLAN=KEY given literally (serve's --key is KEY=PLAN: it registers its own keys).
    if (!serveLine(e)) for (const m of e.shell.matchAll(/--key (\w+)=(?!env:)([^\s"']+)/g)) keys[m[2]!] = m[1]!;
  });
  return keys;
}

const COMMAND = /(^|\s)(petcert|node bin\/petcert\.js|npx petcert) (\w+)/gm;

/** The shell text to run: petcert is this checkout, host names the loopback server, plans the compressed file. */
function runnable(e: Example): string {
  return e.shell
    .replace(/https?:\/\/[^\s"']+\/v1\b/g, server.baseUrl)
    .replace(COMMAND, (_all, lead: string, _petcert: string, command: string) => {
      const plans =
        ['conform', 'quota', 'certify'].includes(command) && !/--plans /.test(e.shell)
          ? ` --plans ${join(work, 'plans.json')}`
          : '';
      return `${lead}node ${BIN} ${command}${plans}`;
    });
}

/** certify with neither --config nor --target is the embedded server's ("Without a config file"). */
const cwdOf = (e: Example): string =>
  /petcert(\.js)? certify/.test(e.shell) && !/--config|--target/.test(e.shell) ? bare : configured;

interface Ran {
  code: number | null;
  out: string;
  cwd: string;
}

function run(i: number, e: Example, shell = runnable(e), extraEnv: Record<string, string> = {}): Promise<Ran> {
  const cwd = cwdOf(e);
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', shell], { cwd, env: { ...process.env, ...envOf(i, e), ...extraEnv } });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const killer = setTimeout(() => child.kill('SIGKILL'), 150_000);
    child.on('close', (code) => {
      clearTimeout(killer);
      resolve({ code, out, cwd });
    });
  });
}

/** The example config as a user copies it, its hosts pointed at the loopback server. */
function writeConfig(dir: string): void {
  mkdirSync(dir, { recursive: true });
  const text = readFileSync(EXAMPLE_CONFIG, 'utf8').replace(/https?:\/\/[^\s"']+\/v1\b/g, server.baseUrl);
  writeFileSync(join(dir, 'petcert.config.json'), text);
  copyFileSync(join(ROOT, 'examples/plans.acme.json'), join(dir, 'plans.acme.json'));
}

/** The key files `petcert serve --key-pool … --key-pool-file F` examples write, for the capacity examples that read them. */
function writeKeyPoolFiles(dir: string): Record<string, string> {
  const all: Record<string, string> = {};
  for (const e of examples) {
    const m = /--key-pool (\S+) --key-pool-file (\S+)/.exec(e.shell);
    if (!m) continue;
    const keys = keyPool(parseKeyPool(m[1]!, specPlanTable()));
    writeFileSync(join(dir, m[2]!), keysFileText(Object.entries(keys).map(([key, plan]) => ({ plan, key }))));
    Object.assign(all, keys);
  }
  return all;
}

const serveLine = (e: Example) => /^petcert serve /.test(e.shell);
const normal = (shell: string) => shell.replace(/\s+/g, ' ').trim();
const runnableHere = (e: Example) => !(normal(e.shell) in NOT_RUN) && !serveLine(e) && !LOADS(e);
const results = new Map<Example, Ran>();

beforeAll(async () => {
  server = await listen({ plans: parsePlansFile(PLANS, 'documented plans'), keys: keysOfAll(), log: () => undefined });
  for (const dir of [work, configured, bare]) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'plans.json'), JSON.stringify(PLANS));
  }
  writeConfig(configured);
  writeConfig(join(configured, 'ci'));
  copyFileSync(join(configured, 'petcert.config.json'), join(configured, 'ci', 'petcert.json'));
  // The server the capacity examples load: `petcert serve --key-pool` as their help starts it (the spec's plans).
  poolServer = await listen({ plans: specPlanTable(), keys: writeKeyPoolFiles(configured), log: () => undefined });
  // Two at a time: each certify runs conform and every quota probe of several keys.
  const queue = examples.map((e, i) => [e, i] as const).filter(([e]) => runnableHere(e));
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) results.set(next[0], await run(next[1], next[0]));
  };
  await Promise.all([worker(), worker()]);
}, 300_000);

afterAll(async () => {
  await server?.close();
  await poolServer?.close();
});

describe('the documentation is read, not copied', () => {
  test('examples are found in every place they are written', () => {
    const sources = new Set(examples.map((e) => e.source.split(' (')[0]!.split(':')[0]!));
    for (const where of [
      'petcert certify --help',
      'petcert conform --help',
      'petcert quota --help',
      'examples/github-actions/petcert.yml',
    ]) {
      expect(sources).toContain(where);
    }
    for (const shell of Object.keys(NOT_RUN))
      expect(
        examples.map((e) => normal(e.shell)),
        `stale NOT_RUN entry: ${shell}`,
      ).toContain(shell);
  });

  test('the example config uses every field petcert.config.json has, and the docs name each one', () => {
    const text = readFileSync(EXAMPLE_CONFIG, 'utf8');
    const docs = readFileSync(join(ROOT, 'docs/certify-your-implementation.md'), 'utf8');
    for (const field of [...CONFIG_FIELDS, ...TARGET_FIELDS, ...KEY_FIELDS]) {
      expect(text, `examples/petcert.config.example.json lacks "${field}"`).toContain(`"${field}"`);
      expect(docs, `docs/certify-your-implementation.md does not document "${field}"`).toContain(field);
    }
  });

  test('every target of the example config is certified by some example', () => {
    const targets = Object.keys(
      (JSON.parse(readFileSync(EXAMPLE_CONFIG, 'utf8')) as { targets: object }).targets,
    ).filter((t) => !t.startsWith('$'));
    const ran = examples.filter((e) => runnableHere(e) && /certify/.test(e.shell));
    for (const t of targets)
      expect(
        ran.some((e) => e.shell.includes(`--target ${t}`)),
        `no example certifies target "${t}"`,
      ).toBe(true);
  });
});

describe.each(
  examples.filter(runnableHere).map((e) => ({
    e,
    name: `${e.source}: ${e.shell
      .split('\n')
      .find((l) => /petcert/.test(l))!
      .trim()}`,
  })),
)('$name', ({ e }) => {
  // 0, or 4 where the example itself leaves a MUST unjudged (INCOMPLETE_BY_DESIGN, exact lines): never a usage
  // error (2), a FAIL of the reference server (1), a run that stopped (3), nor a documented example that
  // passes nobody (4 where 0 was meant).
  test('runs as documented against the reference server: exit 0 (4 where it is INCOMPLETE by design), no usage or internal error', () => {
    const ran = results.get(e)!;
    expect(ran.out).not.toMatch(/unknown option|internal error|error: /);
    const incomplete = Object.keys(INCOMPLETE_BY_DESIGN).some((line) => e.shell.includes(line));
    expect(ran.code, ran.out.slice(-3000)).toBe(incomplete ? 4 : 0);
    if (incomplete) expect(ran.out).toMatch(/^INCOMPLETE {2}petcert .*\n(.*\n)* {6}fix: /m);
    const redirect = /> (\S+)\s*$/m.exec(e.shell)?.[1];
    if (redirect) expect(JSON.parse(readFileSync(join(ran.cwd, redirect), 'utf8')).tool).toBe('petcert');
  });
});

describe('petcert serve examples', () => {
  test.for(examples.filter(serveLine).map((e) => e.shell))('%s starts and serves the API', async (shell) => {
    const port = shell.match(/--port (\d+)/)?.[1];
    const text = (port ? shell.replace(`--port ${port}`, '--port 0') : shell).replace(/^petcert /, `node ${BIN} `);
    // Its own folder: the key file it writes must not replace the one the capacity examples read.
    const cwd = mkdtempSync(join(work, 'serve-'));
    writeFileSync(join(cwd, 'plans.json'), JSON.stringify(PLANS));
    const child = spawn('bash', ['-c', `exec ${text}`], { cwd });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        const timer = setTimeout(() => reject(new Error(`no "listening" line within 10 s:\n${out}`)), 10_000);
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          const m = /listening on (http:\/\/\S+\/v1)/.exec(out);
          if (m) (clearTimeout(timer), resolve(m[1]!));
        });
        child.on('close', (code) => reject(new Error(`exited ${code}:\n${out}`)));
      });
      expect((await fetch(`${url}/pets`)).status).toBe(401);
      const poolFile = /--key-pool-file (\S+)/.exec(shell)?.[1];
      if (poolFile) expect(existsSync(join(cwd, poolFile))).toBe(true);
    } finally {
      child.kill('SIGTERM');
    }
  });
});

// The load examples under the real k6 (every pinned version; skipped locally without it, failing in CI),
// against the key-pool server their help starts, with the capacity bundle built for the test.
const { script } = capacityBed('petcert-documented-k6-');
eachK6('documented capacity examples', (k6) => {
  test.for(examples.filter(LOADS).map((e) => [normal(e.shell), e] as const))(
    '%s',
    { timeout: 120_000 },
    async ([, e]) => {
      const shell = runnable(e)
        .replace(/https?:\/\/[^\s"']+\/v1\b/g, poolServer.baseUrl)
        .replace(/ capacity /, ` capacity --script ${script()} ${SHORT_STEPS} `);
      const ran = await run(examples.indexOf(e), e, shell, { K6: k6() ?? '' });
      expect(ran.out).not.toMatch(/unknown option|internal error|error: /);
      // A verdict on the load: PASS, or FAIL/INCOMPLETE when this busy machine misses the SLO or a check
      // cannot be judged in two short steps, or KEYS-/GENERATOR-BOUND (exit 3, the help's "the largest rate
      // the keys carry" with a pool too small for the mix: the stop line says so, not the summary);
      // never a usage error (2) nor any other stop (3).
      const bound = /Run stopped early \((KEYS|GENERATOR)_BOUND\)/.test(ran.out);
      expect(bound ? [3] : [0, 1, 4], ran.out.slice(-3000)).toContain(ran.code);
      expect(ran.out).toMatch(/step 1\/2: offered/);
    },
  );
});
