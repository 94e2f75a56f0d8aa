// New maps' ids: random whole numbers from 1 to 2^53 − 1, never a count, so nobody learns how
// many maps there are or finds one by counting; every id is exact as a JavaScript number (and
// in JSON), so every client keeps working. Maps made before this kept their ids.
// db/maps.ts draws one and makes sure no map has it.
import { randomBytes } from 'node:crypto';

export function newMapId(): number {
  for (;;) {
    const id = Number(randomBytes(8).readBigUInt64BE() >> 11n); // the top 53 of 64 random bits
    if (id > 0) return id;
  }
}
