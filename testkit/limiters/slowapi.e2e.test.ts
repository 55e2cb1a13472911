// e2e (docs/decisions/007): petcert quota against this real-library server and its faulty twins (rows: all-proofs.ts).
// 'slowapi noDay' stays in the bench only: on a stale uvicorn Date the day search paces ~20 per 3.6 s (each
// minute Reset is slowapi's expiry + 1 s, waited on the server clock's latest reading), so the free key's
// unenforced day is left unjudged ('cannot be reached within one day window') in most runs: never a PASS,
// but not the FAIL it should be (`npm run bench:limiters -- --name 'slowapi noDay'`).
import { proofSuite } from './proof-suite.ts';
import { SLOWAPI_SKIP } from './python.ts';

// The moving-window rows (Limiter(strategy="moving-window"): limits' log, Reset = its oldest request's expiry
// + 1 s) run beside them, on their own servers: the file's wall time stays the longest row's.
proofSuite(
  'FastAPI + slowapi (stock settings, and strategy="moving-window"; uvicorn)',
  [
    'slowapi',
    'slowapi overAdmit',
    'slowapi wrongRemaining',
    'slowapi noRetryAfter',
    'slowapi moving-window',
    'slowapi moving-window overAdmit',
    'slowapi moving-window noDay',
  ],
  SLOWAPI_SKIP,
);
