// §4.4: the service "also has" store-order endpoints (GET /store/orders) and endpoints marked
// experimental or beta, their shapes not shown. What a target answers there is recorded, never judged;
// the coverage phase sends the requests (coverage/cases.ts), the paths come from the contract.
import { observation } from './types.ts';

export const unspecifiedEndpoints = observation(
  'endpoints.unspecified',
  'Endpoints §4.4 names without their shapes (GET /store/orders): what the target answers with and without a key, and whether X-RateLimit-* come along',
  '§4.4, §8.2',
);
