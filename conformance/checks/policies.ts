// The creation policies a server may have where §2.6 is silent, recorded while pets are created
// (create-pet.ts), never judged. Their own file so the creation helper needs no check table.
import { observation } from './types.ts';

export const categoryPolicy = observation(
  'create.category-policy',
  'Whether the server refuses category ids it does not know',
  '§2.6',
);
export const namePolicy = observation(
  'create.name-policy',
  'Whether the server refuses a valid pet whose name is already taken',
  '§2.6',
);
