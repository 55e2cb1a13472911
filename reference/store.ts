// The pets, in memory. Bounded: at `maxPets` the oldest pet is evicted to make room (creation never
// fails for lack of room; a GET of an evicted id answers 404, as for any unknown id). Each pet is
// serialised once, at creation, so listing only joins strings.
import type { PetStatus } from '../spec/contract.ts';
import type { ParsedPet } from './body.ts';

export interface StoredPet {
  id: number;
  status: PetStatus | undefined;
  json: string;
}

export interface ListQuery {
  limit: number;
  status: PetStatus | undefined;
  order: 'oldest' | 'newest' | 'shuffled';
}

export interface Store {
  create(pet: ParsedPet): StoredPet;
  get(id: bigint): StoredPet | undefined;
  list(query: ListQuery): StoredPet[];
  size(): number;
}

export const DEFAULT_MAX_PETS = 100_000;

function serialise(id: number, pet: ParsedPet): string {
  const status = pet.status === undefined ? '' : `,"status":${JSON.stringify(pet.status)}`;
  return `{"id":${id},"name":${JSON.stringify(pet.name)},"categoryId":${pet.categoryId}${status}}`;
}

function take(source: Iterable<StoredPet>, limit: number): StoredPet[] {
  const out: StoredPet[] = [];
  if (limit <= 0) return out;
  for (const pet of source) {
    out.push(pet);
    if (out.length >= limit) break;
  }
  return out;
}

function shuffle<T>(items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

export function createStore(maxPets = DEFAULT_MAX_PETS): Store {
  if (!Number.isSafeInteger(maxPets) || maxPets < 1)
    throw new RangeError(`maxPets must be a positive integer, got ${maxPets}`);
  let nextId = 1;
  // Maps keep insertion order, which is creation order: the oldest pet is the first key.
  const all = new Map<number, StoredPet>();
  const byStatus = new Map<PetStatus | undefined, Map<number, StoredPet>>();
  const bucket = (status: PetStatus | undefined) => {
    let m = byStatus.get(status);
    if (!m) byStatus.set(status, (m = new Map()));
    return m;
  };

  function evictOldest(): void {
    const oldest = all.values().next().value as StoredPet | undefined;
    if (!oldest) return;
    all.delete(oldest.id);
    byStatus.get(oldest.status)?.delete(oldest.id);
  }

  return {
    create(pet) {
      while (all.size >= maxPets) evictOldest();
      const id = nextId++;
      const stored: StoredPet = { id, status: pet.status, json: serialise(id, pet) };
      all.set(id, stored);
      bucket(pet.status).set(id, stored);
      return stored;
    },
    get(id) {
      return id >= 1n && id < BigInt(nextId) ? all.get(Number(id)) : undefined;
    },
    list({ limit, status, order }) {
      const source = status === undefined ? all : (byStatus.get(status) ?? new Map<number, StoredPet>());
      if (order === 'oldest') return take(source.values(), limit);
      const every = [...source.values()];
      return order === 'newest' ? every.reverse().slice(0, limit) : shuffle(every).slice(0, limit);
    },
    size: () => all.size,
  };
}
