// Ids of images and markers: 16 random base62 characters (about 95 bits), URL-safe and
// unguessable, since a media URL is all it takes to fetch the file.
import { createHash, randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const ID_LENGTH = 16;
// Bytes at or above 248 (4 × 62) are skipped so every character is equally likely.
const UNBIASED_LIMIT = 248;

function randomBase62(length: number): string {
  let id = '';
  while (id.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < UNBIASED_LIMIT) id += ALPHABET[byte % 62];
      if (id.length === length) break;
    }
  }
  return id;
}

export const newImageId = (): string => randomBase62(ID_LENGTH);
export const newMarkerId = (): string => randomBase62(ID_LENGTH);

/** The shape of an id this module makes (and of ids a caller may choose for idempotent stores). */
export const isMediaId = (value: unknown): value is string => typeof value === 'string' && /^[0-9A-Za-z]{16}$/.test(value);

/**
 * A stable id for media an import extracts (seed: the request id and the file's index), so a
 * retried import stores each file once. Unguessable as long as the request id is.
 */
export function derivedMediaId(seed: string): string {
  let id = '';
  for (const byte of createHash('sha256').update(seed).digest()) {
    if (byte < UNBIASED_LIMIT) id += ALPHABET[byte % 62];
    if (id.length === ID_LENGTH) return id;
  }
  return (id + randomBase62(ID_LENGTH)).slice(0, ID_LENGTH);
}
