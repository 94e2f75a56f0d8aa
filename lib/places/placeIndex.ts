// Searching the gazetteer (./gazetteer.ts made the data). A query is folded as the names were
// (./fold.ts) and found by binary search among the sorted word entries: the run of entries that
// start with it holds every place whose name, or a word of it, starts with the query. Ranked:
// the whole name equal to the query, then names that start with it, then names with a later word
// that starts with it ("york" → York, then Yorkton, then New York City), and within each, biggest
// population first (places are numbered that way, so the rank is one number). Text after a comma
// narrows by region or country: its name or a word of it starting with that text, or its code
// ("Paris, Texas", "Portland, OR", "Lisbon, US"). One letter scans its whole run (about a tenth
// of the entries) once: well under a millisecond (bench/README.md, `npm run bench -- places`).
import type { PlaceArea, PlaceData } from './gazetteer.js';
import { foldName } from './fold.js';
import type { Place } from './placeSearch.js';

/** The `limit` best places seen: (rank, place) kept sorted by rank, each place once. */
class Best {
  readonly ranks: number[] = [];
  readonly places: number[] = [];
  constructor(private readonly limit: number) {}

  offer(place: number, rank: number): void {
    const { ranks, places } = this;
    if (ranks.length === this.limit && rank >= ranks[ranks.length - 1]!) return;
    // A place found again by another word keeps its better rank.
    const seen = places.indexOf(place);
    if (seen !== -1) {
      if (ranks[seen]! <= rank) return;
      ranks.splice(seen, 1);
      places.splice(seen, 1);
    }
    let at = ranks.length;
    while (at > 0 && ranks[at - 1]! > rank) at--;
    ranks.splice(at, 0, rank);
    places.splice(at, 0, place);
    if (ranks.length > this.limit) {
      ranks.pop();
      places.pop();
    }
  }
}

const round5 = (value: number) => Math.round(value * 1e5) / 1e5;

export class PlaceIndex {
  constructor(private readonly data: PlaceData) {}

  get size(): number {
    return this.data.count;
  }

  /** The places a query finds, best first, at most `limit`; none for a query of no letters or digits. */
  search(query: string, limit: number): Place[] {
    const comma = query.indexOf(',');
    const name = foldName(comma === -1 ? query : query.slice(0, comma));
    if (name === '' || limit < 1) return [];
    const within = comma === -1 ? undefined : this.narrowing(foldName(query.slice(comma + 1)));
    const { keys, keyStart, entryOffset, entryPlace, count, region, country } = this.data;
    // 0 when the entry's text starts with the name; else the sign says which comes first.
    const compare = (offset: number): number => {
      for (let i = 0; i < name.length; i++) {
        const difference = name.charCodeAt(i) - keys.charCodeAt(offset + i); // U+0000 ends a key: shorter comes first
        if (difference !== 0) return difference;
      }
      return 0;
    };
    // The run of entries that start with the name: its first, and the first after it.
    const first = (after: (difference: number) => boolean) => {
      let low = 0;
      let high = entryOffset.length;
      while (low < high) {
        const middle = (low + high) >>> 1;
        if (after(compare(entryOffset[middle]!))) low = middle + 1;
        else high = middle;
      }
      return low;
    };
    const start = first((difference) => difference > 0);
    const end = first((difference) => difference >= 0);
    const best = new Best(limit);
    for (let entry = start; entry < end; entry++) {
      const place = entryPlace[entry]!;
      if (within && within.regions[region[place]!] === 0 && within.countries[country[place]!] === 0) continue;
      const offset = entryOffset[entry]!;
      const tier = offset !== keyStart[place] ? 2 : keys.charCodeAt(offset + name.length) === 0 ? 0 : 1;
      best.offer(place, tier * count + place);
    }
    return best.places.map((place) => this.place(place));
  }

  /** The regions and countries (1: yes) that the text after the comma names (nothing named: undefined, every place). */
  private narrowing(named: string): { regions: Uint8Array; countries: Uint8Array } | undefined {
    if (named === '') return undefined;
    const word = ` ${named}`;
    const which = (areas: PlaceArea[]) => {
      const yes = new Uint8Array(areas.length);
      for (let i = 0; i < areas.length; i++) yes[i] = areas[i]!.words.includes(word) || areas[i]!.code === named ? 1 : 0;
      return yes;
    };
    // Region 0, none, has an empty name and code: never named.
    return { regions: which(this.data.regions), countries: which(this.data.countries) };
  }

  private place(i: number): Place {
    const { data } = this;
    return {
      name: data.names.slice(data.nameStart[i], data.nameStart[i + 1]),
      region: data.regions[data.region[i]!]!.name,
      country: data.countries[data.country[i]!]!.name,
      lon: round5(data.lon[i]!),
      lat: round5(data.lat[i]!),
      population: data.population[i]!,
    };
  }
}
