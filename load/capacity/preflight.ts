// Before any load: one request with one load key, so that an unreachable target is exit 3 and a key
// the target refuses is exit 2, instead of a run of 100 % errors judged as a breaking rate.
import { ConfigError, TransportError, UnreachableError } from '../../core/errors.ts';
import { joinUrl } from '../../core/exchange.ts';
import type { Network } from '../../http/network.ts';
import { createNodeTransport } from '../../http/undici-send.ts';
import { PREFLIGHT_TIMEOUT_MS } from './bound.ts';

export async function preflight(baseUrl: string, key: string, network?: Network): Promise<void> {
  const transport = createNodeTransport({ timeoutMs: PREFLIGHT_TIMEOUT_MS, ...(network ? { network } : {}) });
  try {
    const { response } = await transport.send({
      method: 'GET',
      url: joinUrl(baseUrl, '/pets?limit=1'),
      headers: { authorization: `Bearer ${key}` },
    });
    if (response.status === 401)
      throw new ConfigError(
        `the target refused a key of the key file (401): check the file against ${baseUrl}`,
        '--keys-file',
      );
    if (response.status >= 500)
      throw new UnreachableError(`${baseUrl} answered GET /pets with ${response.status} before any load`);
  } catch (error) {
    if (error instanceof TransportError) throw new UnreachableError(`${baseUrl} is unreachable: ${error.message}`);
    throw error;
  } finally {
    await transport.close();
  }
}
