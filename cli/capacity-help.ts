// `petcert capacity --help`'s examples and model: text for people, apart from the wiring.
import { NETWORK_HELP } from './network-flags.ts';
import { CAPACITY_BOUND_HELP } from '../load/capacity/bound.ts';
import { SETTINGS } from '../load/capacity/settings.ts';

export const CAPACITY_HELP = `
Examples:
  # a reference server with a realistic key pool, then the question "does it hold this mix?"
  petcert serve --port 8080 --key-pool free=500,pro=60,business=5 --key-pool-file keys.txt
  petcert capacity --base-url http://127.0.0.1:8080/v1 --keys-file keys.txt --mix free=200,pro=25,business=2

  # a quick look: 3-second steps, half the customers active, the largest rate the keys carry
  petcert capacity --base-url http://127.0.0.1:8080/v1 --keys-file keys.txt --mix free=2000 --utilisation 0.5 \\
    --step-seconds 3 --scale-to-keys

  # k6's own outputs too (one file per step: k6-s1.json, k6-s2.json, …), e.g. for your dashboards
  petcert capacity --base-url http://127.0.0.1:8080/v1 --keys-file keys.txt --mix free=200 --out json=k6.json

  # beyond one machine: a k6-operator TestRun with 4 runners (2,000 customers at a tenth of their quota
  # fit the key pool above), then one verdict from their logs
  petcert capacity --base-url https://staging.example.com/v1 --keys-file keys.txt --mix free=2000,pro=250 --utilisation 0.1 --emit-testrun 4
  petcert capacity merge runner-*.log
  # the TestRun carries the network flags: proxies as runner env (credentials from a Secret), --ca-file in a
  # ConfigMap, the client certificate in a tls Secret, --insecure; the kubectl lines creating them are printed

The model: planned rate = Σ customers × perMinute × utilisation / minute (figures from the plans file).
Steps go from 25 % to --max-factor × planned; every key carries at most 90 % of its quota, so a 429
below quota is the service's. A spare key (any plan, smallest quota first) is a canary: it sends
1.5 × its quota within one window during the planned-rate step. SLO default: ${SETTINGS.slo.default}.
PASS when sustained / planned ≥ --min-headroom and every MUST check could be judged.
Needs k6: \`npm run k6:build\` (pinned versions), or K6=/path/to/k6, or k6 on PATH; and \`npm run build\`.
Exit codes: 0 pass · 1 a MUST check failed (headroom, quota under load) · 2 usage/config (e.g. not enough
keys, no canary possible: the message says what is needed) · 3 unreachable, k6 failed, or generator/keys-bound
· 4 INCOMPLETE: a MUST check (e.g. a canary's, or all of them with --no-canaries) could not be judged
(--allow-incomplete makes this 0) · 130/143 interrupted by SIGINT/SIGTERM (k6 stopped, the report of
what was judged until then written) · 70 an internal error of petcert (a bug: please report it).
A step whose requests got no HTTP answer (k6: x509, a proxy refusing, a name it cannot resolve) is not a
measurement: exit 3 with k6's error text, its log kept in --report-dir.
${NETWORK_HELP.trim()}
${CAPACITY_BOUND_HELP}`;
