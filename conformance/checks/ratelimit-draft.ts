// The IETF draft fields (draft-ietf-httpapi-ratelimit-headers): `RateLimit` and `RateLimit-Policy`.
// The specification does not name them, so what a target sends is recorded (OBSERVE); only where they
// contradict the X-RateLimit-* triple of the same response is that reported (SHOULD): a client reading
// either would then pace itself differently. Both syntaxes of the drafts are read: items with
// parameters (`"default";r=50;t=30`, `"default";q=100;w=60`, draft 08 on) and draft 07's
// (`limit=100, remaining=50, reset=30`; `100;w=60`).
import type { Exchange } from '../../core/exchange.ts';
import {
  DATE_SLACK_MS,
  parseHeaderInt,
  readRateLimit,
  serverDateMs,
  type RateLimitState,
} from '../../spec/ratelimit.ts';
import type { Plan } from '../../spec/plans.ts';
import { judgesValues } from './ratelimit.ts';
import { fail, type ResponseCheck } from './types.ts';

export const DRAFT_FIELDS = { current: 'ratelimit', policy: 'ratelimit-policy' } as const;

interface Member {
  /** The item's value (a policy name or an integer), or a dictionary key's value. */
  value: string;
  key?: string;
  params: Record<string, string>;
}

/** Splits at `sep` outside double quotes. */
function split(text: string, sep: string): string[] {
  const out: string[] = [];
  let quoted = false;
  let start = 0;
  for (let i = 0; i < text.length; i += 1) {
    if (text[i] === '"' && text[i - 1] !== '\\') quoted = !quoted;
    else if (text[i] === sep && !quoted) {
      out.push(text.slice(start, i));
      start = i + 1;
    }
  }
  out.push(text.slice(start));
  return out.map((s) => s.trim()).filter(Boolean);
}

const unquote = (s: string): string => (s.startsWith('"') && s.endsWith('"') ? s.slice(1, -1) : s);

function members(text: string): Member[] {
  return split(text, ',').map((m) => {
    const [head = '', ...rest] = split(m, ';');
    const params = Object.fromEntries(
      rest.map((p) => p.split('=')).map(([k = '', v = '?1']) => [k.trim(), unquote(v.trim())]),
    );
    const eq = /^([a-z][a-z0-9_*-]*)=(.*)$/.exec(head);
    return eq ? { key: eq[1]!, value: unquote(eq[2]!), params } : { value: unquote(head), params };
  });
}

export interface ServiceLimit {
  /** The policy the item names (draft 08+: the item's value), or undefined. */
  policy?: string;
  limit?: number;
  remaining?: number;
  /** Seconds until the limit resets. */
  reset?: number;
}

/** `RateLimit`: one service limit per item, or draft 07's single dictionary. */
export function readCurrent(text: string): ServiceLimit[] {
  const list = members(text);
  if (list.length && list.every((m) => m.key)) {
    const dict = Object.fromEntries(list.map((m) => [m.key!, m.value]));
    return [
      {
        limit: parseHeaderInt(dict['limit']),
        remaining: parseHeaderInt(dict['remaining']),
        reset: parseHeaderInt(dict['reset']),
      },
    ];
  }
  return list.map((m) => ({
    ...(parseHeaderInt(m.value) === undefined ? { policy: m.value } : {}),
    remaining: parseHeaderInt(m.params['r'] ?? m.params['remaining']),
    reset: parseHeaderInt(m.params['t'] ?? m.params['reset']),
  }));
}

/** `RateLimit-Policy`: each policy's name (draft 08+) and quota (`q`, earlier `l`, or draft 07's bare integer). */
export function readPolicyQuotas(text: string): Array<{ name?: string; quota: number }> {
  return members(text).flatMap((m) => {
    const named = parseHeaderInt(m.value) === undefined;
    const quota = parseHeaderInt(m.params['q'] ?? m.params['l']) ?? parseHeaderInt(m.value);
    return quota === undefined ? [] : [{ ...(named ? { name: m.value } : {}), quota }];
  });
}

/** `RateLimit-Policy`: the quota of each policy. */
export function readPolicies(text: string): number[] {
  return readPolicyQuotas(text).map((p) => p.quota);
}

const SLACK_SECONDS = Math.ceil(DATE_SLACK_MS / 1000);

/**
 * Why the draft fields and X-RateLimit-* of one response contradict each other, or undefined. §8.1 sets
 * two quotas (minute, day) and GAPS.md lets X-RateLimit-* report either: a RateLimit item shown to be
 * about the *other* quota — its policy's `q` (RateLimit-Policy) or draft 07's `limit` is another quota
 * in effect (a policy, or the key's plan figure) — is not compared with the triple, only the items
 * that are (or may be) about the same quota are.
 */
export function contradiction(
  ex: Exchange,
  x: RateLimitState,
  plan?: { perMinute: number; perDay: number },
): string | undefined {
  const h = ex.response.headers;
  const date = serverDateMs(h);
  const current = h[DRAFT_FIELDS.current];
  const policy = h[DRAFT_FIELDS.policy];
  const policies = policy === undefined ? [] : readPolicyQuotas(policy);
  if (current !== undefined) {
    const inEffect = new Set([...policies.map((p) => p.quota), ...(plan ? [plan.perMinute, plan.perDay] : [])]);
    const quotaOf = (l: ServiceLimit) =>
      l.limit ?? policies.find((p) => p.name !== undefined && p.name === l.policy)?.quota;
    const otherQuota = (l: ServiceLimit) => {
      const q = quotaOf(l);
      return q !== undefined && q !== x.limit && inEffect.has(q);
    };
    const limits = readCurrent(current).filter((l) => !otherQuota(l));
    const toReset = date === undefined ? undefined : x.reset - Math.floor(date / 1000);
    const agrees = (l: ServiceLimit) =>
      (l.limit === undefined || l.limit === x.limit) &&
      (l.remaining === undefined || l.remaining === x.remaining) &&
      (l.reset === undefined || toReset === undefined || Math.abs(l.reset - toReset) <= SLACK_SECONDS);
    if (limits.length && !limits.some(agrees))
      return (
        `RateLimit ${JSON.stringify(current)} agrees with no part of X-RateLimit-Limit ${x.limit}, -Remaining ${x.remaining}, -Reset` +
        ` ${x.reset}${toReset === undefined ? '' : ` (${toReset} s after Date)`}`
      );
  }
  if (policy !== undefined) {
    const quotas = policies.map((p) => p.quota);
    if (quotas.length && !quotas.includes(x.limit))
      return `RateLimit-Policy ${JSON.stringify(policy)} names no quota of ${x.limit}, the X-RateLimit-Limit of the same response`;
  }
  return undefined;
}

const shape = (raw: string): string => raw.replace(/\d+/g, 'N');

function label(ex: Exchange, plan?: Plan): string {
  const h = ex.response.headers;
  const sent = [DRAFT_FIELDS.current, DRAFT_FIELDS.policy].filter((n) => h[n] !== undefined);
  if (!sent.length) return 'neither RateLimit nor RateLimit-Policy sent';
  const x = readRateLimit(h);
  const verdict = !x.ok
    ? 'no readable X-RateLimit-* to compare with'
    : contradiction(ex, x.value, plan)
      ? 'contradicts X-RateLimit-*'
      : 'agrees with X-RateLimit-*';
  return `${sent.map((n) => `${n === DRAFT_FIELDS.current ? 'RateLimit' : 'RateLimit-Policy'}: ${shape(h[n]!)}`).join('; ')} — ${verdict}`;
}

export const draftFields: ResponseCheck = {
  kind: 'response',
  id: 'ratelimit.draft-fields',
  title:
    'The IETF draft fields RateLimit and RateLimit-Policy: whether the target sends them, and whether they agree with X-RateLimit-*',
  level: 'OBSERVE',
  specRef: '§8.2; draft-ietf-httpapi-ratelimit-headers',
  applies: () => true,
  judge(ex, ctx) {
    ctx.observe(draftFields, label(ex, ctx.plan));
    return undefined;
  },
};

export const draftAgrees: ResponseCheck = {
  kind: 'response',
  id: 'ratelimit.draft-agrees',
  title: 'When RateLimit / RateLimit-Policy are sent, they do not contradict X-RateLimit-* of the same response',
  level: 'SHOULD',
  specRef: '§8.2; draft-ietf-httpapi-ratelimit-headers',
  // GAPS.md: the rate-limit values on a 401 are OBSERVE (an unknown key has no plan), so they are not held
  // against the draft fields either; what a 401 carries is still recorded by ratelimit.draft-fields.
  applies: (ex) =>
    (ex.response.headers[DRAFT_FIELDS.current] !== undefined ||
      ex.response.headers[DRAFT_FIELDS.policy] !== undefined) &&
    judgesValues(ex),
  judge(ex, ctx) {
    const x = readRateLimit(ex.response.headers);
    const why = x.ok ? contradiction(ex, x.value, ctx.plan) : undefined;
    return why ? fail(why, ex) : undefined;
  },
};
