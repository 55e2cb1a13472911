// One e2e suite per server file: the named rows of all-proofs.ts, run concurrently (each on its own
// server instance), each asserting PASS with every MUST judged or FAIL on the check its fault breaks.
import { describe, expect, it } from 'vitest';
import { ALL_PROOFS } from './all-proofs.ts';
import { judgeProof, PROOF_TIMEOUT_MS, runProof, type Proof } from './proofs.ts';

export function proofSuite(title: string, names: string[], skip?: string): void {
  const proofs = names.map((name) => {
    const proof = ALL_PROOFS.find((p) => p.name === name);
    if (!proof) throw new Error(`no limiter proof named ${JSON.stringify(name)}`);
    return proof;
  });
  const label = (p: Proof): string =>
    `${p.name} → ${p.expect === 'pass' ? 'PASS, every MUST judged' : `FAIL ${p.expect}`}`;
  describe.skipIf(skip !== undefined).concurrent(skip === undefined ? title : `${title} (${skip})`, () => {
    it.for(proofs.map((p) => [label(p), p] as const))(
      '%s',
      { timeout: PROOF_TIMEOUT_MS + 15_000 },
      async ([, proof]) => {
        expect(judgeProof(proof, await runProof(proof))).toBeUndefined();
      },
    );
  });
}
