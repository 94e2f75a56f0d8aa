// An unlisted map's link key: the unguessable part of every address of the map, so that only
// whoever was given its link reaches it ("unlisted: reachable by its link"). The key follows the
// short name (or, in `/embed/…` and `/maps/…`, the map's id) after a tilde:
//   /alice/paris~KQXRBZTWMHPLVCNFGDSYAE   /embed/5480394431770113~KQXRBZTWMHPLVCNFGDSYAE
// so every `{map url}/…` address under it (map.geojson, downloads, images, a later OGC API)
// carries it unchanged. A map has a key only while it is unlisted; each time it becomes unlisted
// it gets a new one (db/maps.ts), so a link given out earlier does not open it again.
//
// 22 upper-case letters without I and O (24 letters: 22 × log2 24 ≈ 100.9 bits): nothing a
// short name (`[a-z0-9-]`) or an id holds, so a reader sees where the name ends, and no pair of
// letters that look alike.
import { randomInt, timingSafeEqual } from 'node:crypto';

const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ';
const LENGTH = 22;
const SEPARATOR = '~';
/** A well-formed key (the API's `link_key` argument is checked with it too). */
export const LINK_KEY_PATTERN = /^[A-HJ-NP-Z]{22}$/;

export function newLinkKey(): string {
  let key = '';
  for (let i = 0; i < LENGTH; i++) key += ALPHABET[randomInt(ALPHABET.length)];
  return key;
}

export const isLinkKey = (value: unknown): value is string => typeof value === 'string' && LINK_KEY_PATTERN.test(value);

/** Whether the key someone gave is the map's (in constant time; a map without a key matches nothing). */
export function sameLinkKey(given: string | undefined, key: string | null): boolean {
  if (given === undefined || key === null || !isLinkKey(given) || given.length !== key.length) return false;
  return timingSafeEqual(Buffer.from(given), Buffer.from(key));
}

/** `{name}~{key}` for a map with a key, `{name}` for another. */
export const keyedName = (name: string, key: string | null): string => (key === null ? name : `${name}${SEPARATOR}${key}`);

/**
 * A path segment read back: the name and the key it carries (undefined: none); undefined when
 * it has a tilde but no well-formed key after it (an address no map has).
 */
export function splitKeyedName(segment: string): { name: string; key: string | undefined } | undefined {
  const at = segment.lastIndexOf(SEPARATOR);
  if (at < 0) return { name: segment, key: undefined };
  const key = segment.slice(at + 1);
  return isLinkKey(key) ? { name: segment.slice(0, at), key } : undefined;
}
