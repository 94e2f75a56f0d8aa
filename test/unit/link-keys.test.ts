// Unlisted maps' link keys and new maps' ids: their form, their spread, and how an address's
// segment is read back (lib/linkKeys.ts, lib/mapIds.ts, lib/mapSummary.ts).
import { describe, expect, it } from 'vitest';
import { isLinkKey, keyedName, newLinkKey, sameLinkKey, splitKeyedName } from '../../lib/linkKeys.js';
import { newMapId } from '../../lib/mapIds.js';
import { mapPath, mapRef, readMapRef } from '../../lib/mapSummary.js';

describe('link keys', () => {
  it('are 22 capital letters without I and O (over 96 bits), none of a short name’s characters, each one new', () => {
    const keys = Array.from({ length: 2000 }, newLinkKey);
    for (const key of keys) expect(key).toMatch(/^[A-HJ-NP-Z]{22}$/);
    expect(new Set(keys).size).toBe(keys.length);
    expect(22 * Math.log2(24)).toBeGreaterThan(96);
    // Every letter of the alphabet turns up, evenly enough.
    const counts = new Map<string, number>();
    for (const char of keys.join('')) counts.set(char, (counts.get(char) ?? 0) + 1);
    expect(counts.size).toBe(24);
    for (const count of counts.values()) expect(Math.abs(count - (2000 * 22) / 24)).toBeLessThan(300);
  });

  it('match only the same key', () => {
    const key = newLinkKey();
    expect(sameLinkKey(key, key)).toBe(true);
    expect(sameLinkKey(key.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')), key)).toBe(false);
    expect(sameLinkKey(undefined, key)).toBe(false);
    expect(sameLinkKey(key, null)).toBe(false);
    expect(sameLinkKey(key.slice(1), key)).toBe(false);
    expect(isLinkKey('paris')).toBe(false);
  });

  it('follow the short name or id after a tilde, and are read back from it', () => {
    const key = newLinkKey();
    expect(keyedName('paris', key)).toBe(`paris~${key}`);
    expect(keyedName('paris', null)).toBe('paris');
    expect(splitKeyedName(`my-trip-2~${key}`)).toEqual({ name: 'my-trip-2', key });
    expect(splitKeyedName('my-trip-2')).toEqual({ name: 'my-trip-2', key: undefined });
    for (const bad of ['paris~', 'paris~abc', `paris~${key.toLowerCase()}`, `paris~${key}~`]) expect(splitKeyedName(bad)).toBeUndefined();
    const map = { id: 5480394431770113, owner: 'alice', shortName: 'paris', linkKey: key };
    expect(mapPath(map)).toBe(`/alice/paris~${key}`);
    expect(mapPath({ ...map, linkKey: null })).toBe('/alice/paris');
    expect(readMapRef(mapRef(map))).toEqual({ id: map.id, key });
    expect(readMapRef('12')).toEqual({ id: 12, key: undefined });
    for (const bad of ['0', '012', '1e3', '9007199254740992', `12~${key}x`, '', undefined]) expect(readMapRef(bad)).toBeUndefined();
  });
});

describe('new map ids', () => {
  it('are random whole numbers from 1 to 2^53 − 1, spread over the whole range', () => {
    const ids = Array.from({ length: 1000 }, newMapId);
    for (const id of ids) expect(Number.isSafeInteger(id) && id > 0).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    // Half of them above 2^52, none down where a count would be (each has one chance in 2^23 to be).
    const high = ids.filter((id) => id >= 2 ** 52).length;
    expect(high).toBeGreaterThan(400);
    expect(high).toBeLessThan(600);
    expect(ids.filter((id) => id < 2 ** 30)).toEqual([]);
  });
});
