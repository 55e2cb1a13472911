import { expect, test } from 'vitest';
import { originForm } from './target.ts';

test.for([
  ['/v1/pets?limit=5', '/v1/pets?limit=5'],
  ['http://127.0.0.1:8080/v1/pets?limit=5', '/v1/pets?limit=5'],
  ['HTTPS://example.com/v1/pets/1', '/v1/pets/1'],
  ['http://example.com', '/'],
  ['http://example.com?limit=1', '/?limit=1'],
  ['*', '*'],
  ['v1/pets', 'v1/pets'],
])('%s → %s', ([target, expected]) => {
  expect(originForm(target!)).toBe(expected);
});
