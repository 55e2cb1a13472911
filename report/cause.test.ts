import { expect, test } from 'vitest';
import { causeOf, messageShape, routeOf } from './cause.ts';

const ex = (method: string, url: string, status: number) => ({
  request: { method, url, headers: {} },
  response: { status, headers: {}, body: '' },
  sentAt: 0,
  durationMs: 1,
});

test("the route: the contract's template for the path (any prefix), query values gone, names kept", () => {
  expect(routeOf(ex('get', 'http://h/v1/pets/123', 200))).toBe('GET /v1/pets/{petId}');
  expect(routeOf(ex('GET', 'http://h/shop/v1/pets/abc%20x', 400))).toBe('GET /shop/v1/pets/{petId}');
  expect(routeOf(ex('GET', 'http://h/v1/pets?limit=5&status=sold&limit=7', 200))).toBe('GET /v1/pets?limit&status');
  // A path outside the contract (§4.4's unspecified endpoints): id-like segments only.
  expect(routeOf(ex('GET', 'http://h/v1/store/orders/9f1c2d3e-0000-4000-8000-123456789abc', 404))).toBe(
    'GET /v1/store/orders/{id}',
  );
});

test('the message shape: numbers, ids and quoted values normalised, the words kept', () => {
  expect(messageShape('Remaining went from 225 to 225 (expected 224)')).toBe('Remaining went from N to N (expected N)');
  expect(messageShape('name "petcert-x1" came back as "x"')).toBe('name "…" came back as "…"');
  expect(messageShape('Reset 1.7e9 for 9f1c2d3e-0000-4000-8000-123456789abc')).toBe('Reset N for ID');
});

test('one cause: operation × status × what was wrong; a finding may name its own', () => {
  const a = causeOf({ message: 'Remaining 12 repeated', exchange: ex('GET', 'http://h/v1/pets/1', 200) });
  expect(a).toBe('GET /v1/pets/{petId} → 200: Remaining N repeated');
  expect(causeOf({ message: 'Remaining 40 repeated', exchange: ex('GET', 'http://h/v1/pets/2', 200) })).toBe(a);
  expect(causeOf({ message: 'Remaining 12 repeated', exchange: ex('GET', 'http://h/v1/pets/1', 404) })).not.toBe(a);
  expect(causeOf({ message: 'Remaining 12 repeated', exchange: ex('POST', 'http://h/v1/pets', 200) })).not.toBe(a);
  expect(causeOf({ message: 'Limit 12 repeated', exchange: ex('GET', 'http://h/v1/pets/1', 200) })).not.toBe(a);
  expect(causeOf({ message: 'anything', cause: 'the day window' })).toBe('the day window');
});
