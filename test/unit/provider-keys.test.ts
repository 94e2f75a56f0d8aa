import { describe, expect, it } from 'vitest';
import { maskedProviderKey, validProviderKey } from '../../lib/providerKeys.js';

const TOKEN = 'pk.eyJ1IjoiYWxpY2UiLCJhIjoiY2xxMnRlc3QifQ.abcDEF123_-x9Q1c';

describe('provider keys', () => {
  it('takes a public token for the map platform and an API key for the other kinds, without surrounding spaces', () => {
    expect(validProviderKey('map_platform', `  ${TOKEN}\n`)).toEqual({ kind: 'map_platform', key: TOKEN });
    for (const kind of ['location_platform', 'gis_platform', 'tile_provider']) {
      expect(validProviderKey(kind, 'AAPK1234abcd.efgh_ijkl-mnop')).toEqual({ kind, key: 'AAPK1234abcd.efgh_ijkl-mnop' });
    }
  });

  it('refuses what cannot be a key of its kind, saying why', () => {
    const refusal = (kind: string, key: string) => {
      try {
        validProviderKey(kind, key);
      } catch (error) {
        return error as { code: string; message: string };
      }
      throw new Error(`accepted ${kind} ${key}`);
    };
    expect(refusal('map_platform', 'sk.eyJ1IjoiYWxpY2UiLCJhIjoiY2xxMnRlc3QifQ.secret')).toMatchObject({ code: 'invalid_provider_key', message: expect.stringMatching(/secret token.*"pk\."/) });
    expect(refusal('map_platform', 'abcdefghijklmnopqrstuvwxyz')).toMatchObject({ code: 'invalid_provider_key', message: expect.stringMatching(/public token/) });
    expect(refusal('map_platform', 'pk.short')).toMatchObject({ code: 'invalid_provider_key' });
    expect(refusal('tile_provider', 'short')).toMatchObject({ code: 'invalid_provider_key', message: expect.stringMatching(/8 to 512/) });
    expect(refusal('tile_provider', 'has a space inside')).toMatchObject({ code: 'invalid_provider_key' });
    expect(refusal('mapbox', TOKEN)).toMatchObject({ code: 'invalid_arguments', message: expect.stringMatching(/map_platform, location_platform, gis_platform, tile_provider/) });
  });

  it('never shows a key whole: its start and end at most, short keys their last two characters', () => {
    expect(maskedProviderKey(TOKEN)).toBe('pk.eyJ…9Q1c');
    expect(maskedProviderKey('AAPK1234abcd.efgh_ijkl-mnop')).toBe('AAP…mnop');
    expect(maskedProviderKey('abcdefgh12')).toBe('…12');
  });
});
