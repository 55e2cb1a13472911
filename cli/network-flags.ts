// The flags every command reaching a target shares: --proxy, --ca-file, --client-cert, --client-key,
// --insecure. Each overrides the config target's `network` field of the same name (certify), and
// --proxy overrides HTTPS_PROXY/HTTP_PROXY. Resolved once (http/network.ts), said at start, and
// recorded in the report.
import { dirname, resolve } from 'node:path';
import type { Command } from 'commander';
import type { Send } from '../core/exchange.ts';
import { createNodeTransport, DEFAULT_SEND_OPTIONS } from '../http/undici-send.ts';
import { networkFacts, networkLines, resolveNetwork, type Network, type NetworkFlags } from '../http/network.ts';
import { PASSPHRASE_ENV } from '../http/tls.ts';
import type { Report } from '../report/model.ts';
import type { NetworkConfig } from './config.ts';
import type { Env } from './flags.ts';

export interface NetworkCliFlags {
  proxy?: string;
  caFile?: string;
  clientCert?: string;
  clientKey?: string;
  insecure?: boolean;
}

/** Where a config target's `network` came from: its file (paths are relative to it) and its field. */
export interface ConfiguredNetwork {
  network: NetworkConfig;
  configPath: string;
  field: string;
}

export function addNetworkOptions(cmd: Command): Command {
  return cmd
    .option(
      '--proxy <url>',
      'HTTP proxy for every request (Node and k6), instead of HTTPS_PROXY/HTTP_PROXY; NO_PROXY still applies, loopback goes direct',
    )
    .option(
      '--ca-file <path>',
      "PEM file of CAs to trust besides the system roots (Node and k6), e.g. the company's private CA",
    )
    .option('--client-cert <path>', 'PEM client certificate presented to the target (with --client-key)')
    .option(
      '--client-key <path>',
      `PEM key of --client-cert (an encrypted key's passphrase only from ${PASSPHRASE_ENV}); never printed`,
    )
    .option(
      '--insecure',
      'turn TLS verification off (Node and k6): printed at start and recorded in every report as "TLS verification was off"',
    );
}

export const NETWORK_HELP = `
Network: HTTPS_PROXY, HTTP_PROXY and NO_PROXY (either case) are honoured by Node and k6 alike (loopback
always direct); --proxy overrides them. --ca-file adds CAs to the system roots (NODE_EXTRA_CA_CERTS works
too); --client-cert/--client-key present an identity (passphrase in ${PASSPHRASE_ENV}). A failure on this
side (CA not trusted, client certificate wanted, proxy refusing, DNS) stops the run with exit 3, its
cause and its fix, before any judged request.`;

/** A config target's network, its paths made absolute against the config file, each field named as written. */
function configuredFlags(c: ConfiguredNetwork): NetworkFlags {
  const dir = dirname(c.configPath);
  const at = (p: string | undefined) => (p === undefined ? undefined : resolve(dir, p));
  const n = c.network;
  return {
    ...(n.proxy !== undefined ? { proxy: n.proxy, proxyField: `${c.field}.proxy` } : {}),
    ...(n.caFile !== undefined ? { caFile: at(n.caFile) } : {}),
    ...(n.clientCert !== undefined ? { clientCert: at(n.clientCert) } : {}),
    ...(n.clientKey !== undefined ? { clientKey: at(n.clientKey) } : {}),
    ...(n.insecure ? { insecure: true } : {}),
    fields: { caFile: `${c.field}.caFile`, clientCert: `${c.field}.clientCert`, clientKey: `${c.field}.clientKey` },
  };
}

/** The flags over the config's fields, resolved (files read and checked: a bad one is exit 2 naming it). */
export function networkOf(flags: NetworkCliFlags, env: Env, configured?: ConfiguredNetwork): Network {
  const base: NetworkFlags = configured ? configuredFlags(configured) : {};
  const given = (name: 'caFile' | 'clientCert' | 'clientKey') =>
    flags[name] !== undefined ? { [name]: flags[name] } : {};
  const merged: NetworkFlags = {
    ...base,
    ...(flags.proxy !== undefined ? { proxy: flags.proxy, proxyField: '--proxy' } : {}),
    ...given('caFile'),
    ...given('clientCert'),
    ...given('clientKey'),
    ...(flags.insecure ? { insecure: true } : {}),
    fields: {
      caFile: flags.caFile !== undefined ? '--ca-file' : (base.fields?.caFile ?? '--ca-file'),
      clientCert: flags.clientCert !== undefined ? '--client-cert' : (base.fields?.clientCert ?? '--client-cert'),
      clientKey: flags.clientKey !== undefined ? '--client-key' : (base.fields?.clientKey ?? '--client-key'),
    },
  };
  return resolveNetwork(merged, env);
}

/** The report with the network it was made over (report.json `network`; JUnit and HTML say when TLS verification was off). */
export function stampNetwork<R extends Report>(report: R, network: Network, baseUrl: string): R {
  return { ...report, network: networkFacts(network, baseUrl) };
}

export const sayNetwork = (network: Network, baseUrl: string, say: (line: string) => void): void => {
  for (const line of networkLines(network, baseUrl)) say(line);
};

/** One Node transport over the run's network for `run`, closed after (the engines take it as their `send`). */
export async function overNetwork<T>(
  network: Network,
  timeoutMs: number | undefined,
  run: (send: Send) => Promise<T>,
): Promise<T> {
  const transport = createNodeTransport({ timeoutMs: timeoutMs ?? DEFAULT_SEND_OPTIONS.timeoutMs, network });
  try {
    return await run(transport.send);
  } finally {
    await transport.close();
  }
}
