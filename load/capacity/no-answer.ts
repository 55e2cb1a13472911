// A step whose requests got no HTTP answer is not a measurement of the service: k6 never reached it
// (a CA it does not trust, a client certificate wanted, a proxy refusing, a name it cannot resolve).
// Such a step stops the run before a verdict (exit 3), with k6's own error texts and what to change.
import { PetcertError } from '../../core/errors.ts';
import type { RunnerStep } from './result.ts';

/** k6's error texts that are the client's network, trust or identity, never the service's doing. */
const CLIENT_SIDE: ReadonlyArray<{ text: RegExp; fix: string }> = [
  {
    text: /x509|certificate signed by unknown authority|unknown authority/i,
    fix:
      "k6 does not trust the server's certificate: give its CA with --ca-file (petcert hands k6 a bundle of the system's roots and that" +
      ' file as SSL_CERT_FILE)',
  },
  {
    text: /certificate required|bad certificate|handshake failure/i,
    fix: 'the server wants a client certificate: give --client-cert PATH --client-key PATH',
  },
  {
    text: /proxyconnect|proxy|Forbidden|Authentication Required/i,
    fix: 'the proxy refused k6 or could not be reached: check --proxy or HTTPS_PROXY/HTTP_PROXY (and NO_PROXY)',
  },
  {
    text: /no such host|lookup .* on/i,
    fix: 'k6 cannot resolve the host: if only your proxy resolves it, set HTTPS_PROXY or --proxy',
  },
];

export class NoAnswerError extends PetcertError {
  constructor(
    message: string,
    /** k6's own output (stderr, stdout), secrets redacted: kept beside the report. */
    readonly k6Log: string,
  ) {
    super('K6_NO_ANSWER', message);
  }
}

const listed = (errors: Record<string, number>): string =>
  Object.entries(errors)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 5)
    .map(([text, n]) => `"${text}" × ${n}`)
    .join('; ');

/** Why this step measured nothing of the service (every request unanswered, or a client-side cause), or undefined. */
export function notMeasured(
  step: Pick<RunnerStep, 'index' | 'requests' | 'noAnswer' | 'noAnswerErrors'>,
): string | undefined {
  const errors = step.noAnswerErrors ?? {};
  const unanswered = step.noAnswer ?? 0;
  const texts = Object.keys(errors);
  const fixes = [...new Set(CLIENT_SIDE.filter((c) => texts.some((t) => c.text.test(t))).map((c) => c.fix))];
  const nothingAnswered = step.requests > 0 && unanswered >= step.requests;
  if (!nothingAnswered && fixes.length === 0) return undefined;
  const head = `step ${step.index + 1}: ${unanswered} of ${step.requests} requests got no HTTP answer (k6: ${listed(errors) || 'no error text'})`;
  const fix = fixes.length ? fixes.join('; ') : "see k6's log; check that k6 reaches the base URL from this machine";
  return `${head}. Not a measurement of the service: nothing was judged. Fix: ${fix}.`;
}
