import { describe, expect, test } from 'vitest';
import { createStore } from './store.ts';

describe('store', () => {
  test('ids are unique, increasing, and the JSON is a Pet', () => {
    const store = createStore();
    const a = store.create({ name: 'a', categoryId: '1' });
    const b = store.create({ name: 'b"\n', categoryId: '-2', status: 'sold' });
    expect(b.id).toBeGreaterThan(a.id);
    expect(JSON.parse(b.json)).toEqual({ id: b.id, name: 'b"\n', categoryId: -2, status: 'sold' });
    expect(store.get(BigInt(a.id))?.id).toBe(a.id);
    expect(store.get(999n)).toBeUndefined();
    expect(store.get(-1n)).toBeUndefined();
  });

  test('list filters by status, honours limit and order', () => {
    const store = createStore();
    for (let i = 0; i < 6; i++) store.create({ name: `p${i}`, categoryId: '1', status: i % 2 ? 'sold' : 'available' });
    const ids = (order: 'oldest' | 'newest' | 'shuffled', status?: 'sold') =>
      store.list({ limit: 10, status, order }).map((p) => p.id);
    expect(ids('oldest')).toEqual([1, 2, 3, 4, 5, 6]);
    expect(ids('newest')).toEqual([6, 5, 4, 3, 2, 1]);
    expect(ids('oldest', 'sold')).toEqual([2, 4, 6]);
    expect(ids('shuffled').sort()).toEqual([1, 2, 3, 4, 5, 6]);
    expect(store.list({ limit: 2, status: undefined, order: 'oldest' })).toHaveLength(2);
    expect(store.list({ limit: 5, status: 'pending', order: 'oldest' })).toEqual([]);
  });

  test('at maxPets the oldest pet is evicted, everywhere', () => {
    const store = createStore(3);
    for (let i = 0; i < 5; i++) store.create({ name: `p${i}`, categoryId: '1', status: 'sold' });
    expect(store.size()).toBe(3);
    expect(store.get(1n)).toBeUndefined();
    expect(store.get(5n)?.id).toBe(5);
    expect(store.list({ limit: 10, status: 'sold', order: 'oldest' }).map((p) => p.id)).toEqual([3, 4, 5]);
  });

  test('maxPets must be a positive integer', () => {
    expect(() => createStore(0)).toThrow(RangeError);
  });
});
