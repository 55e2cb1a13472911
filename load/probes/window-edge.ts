// An admitted answer reporting its quota's whole allowance (Remaining = Limit) says its request was not
// counted, unless the request may have been counted in an earlier window of that quota and answered once
// that window had ended. slowapi reads X-RateLimit-* after the endpoint returned (extension.py
// _inject_headers → limits get_window_stats): a window that ended in between reads as none, Remaining =
// Limit and Reset = now + 1 s. Such an answer describes a later window than the one that counted its
// request (§8.2 "in the current window"): no evidence that the request went uncounted.
// Pure: a function of the answer, this key's samples and the server clock's latest reading.
import type { Sample } from '../../report/model.ts';

export interface EdgeAnswer {
  /** Local ms the request was sent. */
  sentLocal: number;
  limit: number;
  reset: number;
  /** Its own sample, when recorded (never its own evidence). */
  sample?: Sample;
}

/**
 * An admitted answer of this key with the same Limit, room left (Remaining ≥ 1) and an earlier Reset, whose
 * window may not yet have ended when `answer`'s request was sent: `latestLocalAt(serverMs)` is the latest
 * local ms at which the server's clock can read serverMs (ServerClock.toLocalNotBefore). Undefined when none.
 */
export function earlierWindowWithRoom(
  answer: EdgeAnswer,
  samples: readonly Sample[],
  latestLocalAt: (serverMs: number) => number | undefined,
): Sample | undefined {
  return samples.find(
    (s) =>
      s !== answer.sample &&
      s.status >= 200 &&
      s.status < 300 &&
      s.limit === answer.limit &&
      s.remaining !== undefined &&
      s.remaining >= 1 &&
      s.reset !== undefined &&
      s.reset < answer.reset &&
      answer.sentLocal < (latestLocalAt(s.reset * 1000) ?? Number.NEGATIVE_INFINITY),
  );
}
