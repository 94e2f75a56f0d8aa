// What a place search answers, and its limits: the API's place/search and the site's
// GET /places/search give the same answer, and the browser's Find a place box imports this type
// instead of declaring it again. Pure (no Node built-ins): the front end imports it.

/** One place of the gazetteer (GeoNames' cities of 1,000 people or more). */
export interface Place {
  /** GeoNames' main name, usually in Latin script ("Lisbon", "Zürich", "São Paulo"). */
  name: string;
  /** Its first-level division (state, province, region), in English; empty when unknown. */
  region: string;
  /** Its country, in English. */
  country: string;
  lon: number;
  lat: number;
  /** GeoNames' figure; 0 when it has none (some seats of districts). */
  population: number;
}

export interface PlaceSearchAnswer {
  places: Place[];
}

/** A query is 1 to this many characters (the longest place name is 65; room for ", region"). */
export const PLACE_QUERY_MAX_LENGTH = 200;
/** How many places a search answers at most, and by default. */
export const PLACE_LIMIT_MAX = 50;
export const PLACE_LIMIT_DEFAULT = 10;

/** Where the data comes from, as its licence asks to say wherever results are shown. */
export const GAZETTEER_CREDIT = { name: 'GeoNames', licence: 'CC BY 4.0', url: 'https://www.geonames.org/' } as const;
