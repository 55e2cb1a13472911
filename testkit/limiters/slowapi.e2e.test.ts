// e2e (issue 15 §2): petcert quota against this real-library server and its faulty twins (rows: all-proofs.ts).
import { proofSuite } from './proof-suite.ts';
import { SLOWAPI_SKIP } from './python.ts';

proofSuite(
  'FastAPI + slowapi (stock settings, uvicorn)',
  [
    'slowapi overAdmit',
    'slowapi wrongRemaining',
    'slowapi noRetryAfter',
  ],
  SLOWAPI_SKIP,
);
