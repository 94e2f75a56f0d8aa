// The icon picker's search (lib/iconSearch.ts) over the real Maki names: by name, by the words
// people use, ranked, the recently used first.
import { describe, expect, it } from 'vitest';
import { ICON_WORDS, searchIcons, usedIcon } from '../../lib/iconSearch.js';
import { makiNames } from '../../lib/makiIcons.js';

const names = makiNames();

describe('searchIcons', () => {
  it('finds icons by the words people use', () => {
    expect(searchIcons(names, 'coffee')[0]).toBe('cafe');
    expect(searchIcons(names, 'WC')).toEqual(['toilet']);
    expect(searchIcons(names, 'bus stop')[0]).toBe('bus');
    expect(searchIcons(names, 'hotel')).toEqual(['lodging']);
    expect(searchIcons(names, 'doctor').slice(0, 2)).toEqual(['doctor', 'hospital']);
  });

  it('ranks the exact name, then names starting with the query, then words, then names containing it', () => {
    const park = searchIcons(names, 'park');
    expect(park[0]).toBe('park');
    expect(park.indexOf('park-alt1')).toBeLessThan(park.indexOf('parking'));
    expect(park.indexOf('parking')).toBeLessThan(park.indexOf('dog-park'));
    expect(searchIcons(names, 'restaurant pizza')[0]).toBe('restaurant-pizza');
    expect(searchIcons(names, '  ')).toHaveLength(names.length);
    expect(searchIcons(names, 'zzzz')).toEqual([]);
  });

  it('puts the recently used first among equals, and first of all with no query', () => {
    expect(searchIcons(names, '', ['zoo', 'bar']).slice(0, 3)).toEqual(['zoo', 'bar', 'aerialway']);
    const rail = searchIcons(names, 'rail', ['rail-metro']);
    expect(rail[0]).toBe('rail'); // the exact name still wins
    expect(rail[1]).toBe('rail-metro');
    expect(searchIcons(names, '', ['not-an-icon'])[0]).toBe('aerialway');
  });

  it('keeps a short recently used list, newest first', () => {
    let recent: string[] = [];
    for (const name of ['a', 'b', 'c', 'a']) recent = usedIcon(recent, name, 3);
    expect(recent).toEqual(['a', 'c', 'b']);
  });

  it('maps every word to icons Maki has', () => {
    for (const icons of Object.values(ICON_WORDS)) for (const icon of icons) expect(names).toContain(icon);
  });
});
