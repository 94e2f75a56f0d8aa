// API keys: "mps_" + a 10-character public prefix + "_" + 43 characters of secret. Only the
// SHA-256 of the whole key is stored (the key has 256 bits of entropy, so a slow hash adds
// nothing); the prefix finds the row and the hashes are compared in constant time.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

const KEY_PATTERN = /^mps_([A-Za-z0-9]{10})_[A-Za-z0-9_-]{43}$/;
const PREFIX_ALPHABET = 'abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';

export interface NewApiKey {
  key: string;
  prefix: string;
  hash: string;
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export function generateApiKey(): NewApiKey {
  const prefix = Array.from(randomBytes(10), (byte) => PREFIX_ALPHABET[byte % PREFIX_ALPHABET.length]).join('');
  const key = `mps_${prefix}_${randomBytes(32).toString('base64url')}`;
  return { key, prefix, hash: hashApiKey(key) };
}

/** The prefix of a well-formed key, or undefined. */
export function apiKeyPrefix(key: string): string | undefined {
  return KEY_PATTERN.exec(key)?.[1];
}

export function apiKeyMatches(key: string, storedHash: string): boolean {
  const actual = Buffer.from(hashApiKey(key), 'hex');
  const expected = Buffer.from(storedHash, 'hex');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
