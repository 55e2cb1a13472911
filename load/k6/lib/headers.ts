// §8.2 headers of a k6 response, read with the same parser as everywhere (names lower-cased first).
import { lowerCaseHeaders } from '../../../core/exchange.ts';
import { readRateLimit } from '../../../spec/ratelimit.ts';

export const readHeaders = (headers: Record<string, string>) => readRateLimit(lowerCaseHeaders(headers));
