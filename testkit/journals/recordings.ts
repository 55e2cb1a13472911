// The recorded journals of testkit/journals/, as data: which server, which fault, keys and probes. Each
// is recorded live (scripts/record-journals.ts) with the verdict the live run gave beside it, and
// re-judged offline by recordings.test.ts in a second or two instead of the live run's minute.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { listen, type ReferenceFaults, type ReferenceVariants } from '../../reference/index.ts';
import { parsePlansFile } from '../../spec/plans.ts';
import { ALL_PROOFS } from '../limiters/all-proofs.ts';
import { PROOF_KEYS, PROOF_PLANS, type Proof } from '../limiters/proofs.ts';
import { startService } from '../limiters/start.ts';

export const JOURNALS_DIR = fileURLToPath(new URL('.', import.meta.url));

export interface Recording {
  /** File names: `<name>.jsonl.gz` and `<name>.verdict.json`. */
  name: string;
  /** A limiter proof of testkit/limiters/all-proofs.ts (its service, fault, keys, probes, declared model). */
  proof?: string;
  /** Or the reference server, as it is or with faults or variants, on PROOF_PLANS. */
  reference?: { faults?: ReferenceFaults; variants?: ReferenceVariants; only?: string[]; freeOnly?: boolean };
  /** A live run caught misjudged, kept as it was: a new live run need not show the same evidence, so it is re-recorded only by name. */
  kept?: true;
}

export const RECORDINGS: Recording[] = [
  { name: 'reference', reference: {} },
  { name: 'reference-sliding-log', reference: { variants: { limiterModel: 'sliding-log' } } },
  { name: 'reference-overAdmit', reference: { faults: { overAdmit: 1 }, only: ['minute', 'burst'], freeOnly: true } },
  { name: 'erl', proof: 'erl' },
  { name: 'erl-noDay', proof: 'erl noDay' },
  { name: 'rlf', proof: 'rlf' },
  { name: 'token-bucket', proof: 'token-bucket' },
  { name: 'token-bucket-overAdmit', proof: 'token-bucket overAdmit' },
  // Live false FAILs of the correct limits counter: a burst that crossed its own window end (40 before it, then 3
  // on its weighted steps; 17 before it, then 25). Their verdicts are the re-judged ones (reading.ts
  // ownEndCrossed), each check's outcome the live run's but quota.burst.exact, the live verdict kept as `live`.
  { name: 'slowapi-sliding-counter-straddle', proof: 'slowapi sliding-counter', kept: true },
  { name: 'slowapi-sliding-counter-straddle-part', proof: 'slowapi sliding-counter', kept: true },
  // The free burst: 1 answer before the end, 20 after it a second later (the last window held 2: steps of 1 s).
  { name: 'slowapi-sliding-counter-straddle-second', proof: 'slowapi sliding-counter', kept: true },
  // One window end read 8 ms apart on a busy server (Reset .0079842 among .00001): Remaining read out of order.
  { name: 'slowapi-sliding-counter-reset-noise', proof: 'slowapi sliding-counter', kept: true },
];

/** What the live run said, written beside its journal at recording time (never by hand). */
export interface RecordedVerdict {
  recordedWith: string;
  exit: number;
  verdict: string;
  /** The live run's wall time, ms. */
  liveMs: number;
  checks: Array<{ id: string; outcome: string; messages: string[]; reason?: string; fix?: string }>;
  /** A live run petcert misjudged, kept as a regression: what it said then (the verdict above is the corrected one). */
  live?: { verdict: string; failed: string[] };
}

export const readVerdict = (name: string): RecordedVerdict =>
  JSON.parse(readFileSync(`${JOURNALS_DIR}${name}.verdict.json`, 'utf8')) as RecordedVerdict;

export interface Target {
  baseUrl: string;
  /** API key → plan. */
  keys: Record<string, string>;
  /** The quota flags besides --base-url, --key, --plans. */
  args: string[];
  close(): Promise<void>;
}

const freeKeys = () => Object.fromEntries(Object.entries(PROOF_KEYS).filter(([, plan]) => plan === 'free'));

/** Starts the recording's server (PROOF_PLANS unless its proof says otherwise): what to run petcert quota against. */
export async function startRecording(r: Recording): Promise<Target & { plans: object }> {
  if (r.reference) {
    const keys = r.reference.freeOnly ? freeKeys() : { ...PROOF_KEYS };
    const { faults, variants } = r.reference;
    const server = await listen({ plans: parsePlansFile(PROOF_PLANS), keys, faults, variants });
    const args = (r.reference.only ?? []).flatMap((p) => ['--only', p]);
    return { baseUrl: server.baseUrl, keys, args, plans: PROOF_PLANS, close: () => server.close() };
  }
  const proof: Proof | undefined = ALL_PROOFS.find((p) => p.name === r.proof);
  if (!proof) throw new Error(`no limiter proof named ${JSON.stringify(r.proof)}`);
  const plans = proof.plans ?? PROOF_PLANS;
  const keys = proof.freeOnly ? freeKeys() : { ...PROOF_KEYS };
  const service = await startService(proof.service, {
    plans: parsePlansFile(plans),
    keys,
    fault: proof.fault,
    wrap: proof.wrap,
  });
  const args = [
    ...(proof.only ?? []).flatMap((p) => ['--only', p]),
    ...(proof.declared ? ['--limiter-model', proof.declared] : []),
  ];
  return { baseUrl: service.baseUrl, keys, args, plans, close: () => service.close() };
}
