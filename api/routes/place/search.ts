import { z } from 'zod';
import { searchPlaces } from '../../../lib/places/index.js';
import { PLACE_LIMIT_DEFAULT, PLACE_LIMIT_MAX, PLACE_QUERY_MAX_LENGTH, type PlaceSearchAnswer } from '../../../lib/places/placeSearch.js';
import { defineOperation } from '../../operation.js';
import { text } from '../../schemas.js';

/** The arguments, also what the site's GET /places/search checks its query string with (api/web/placeSearchRoute.ts). */
export const placeSearchArgs = z.strictObject({
  query: text(PLACE_QUERY_MAX_LENGTH)
    .min(1, 'must not be empty')
    .describe(`A place name or its beginning, any case, accents optional; after a comma, a region or country narrows ("Paris, Texas"). 1–${PLACE_QUERY_MAX_LENGTH} characters (one with no letter or digit finds nothing)`),
  limit: z.number().int().min(1).max(PLACE_LIMIT_MAX).default(PLACE_LIMIT_DEFAULT).describe(`How many places at most, 1–${PLACE_LIMIT_MAX} (default ${PLACE_LIMIT_DEFAULT})`),
});

const placeSchema = z.object({
  name: z.string().describe("GeoNames' main name of the place"),
  region: z.string().describe('Its state, province or region, in English; empty when unknown'),
  country: z.string().describe('Its country, in English'),
  lon: z.number().describe('Longitude, WGS 84'),
  lat: z.number().describe('Latitude, WGS 84'),
  population: z.number().int().describe("GeoNames' figure; 0 when it has none"),
});

const EXAMPLE: PlaceSearchAnswer = {
  places: [
    { name: 'Lisbon', region: 'Lisbon', country: 'Portugal', lon: -9.13333, lat: 38.71667, population: 517802 },
    { name: 'Lisburn', region: 'Northern Ireland', country: 'United Kingdom', lon: -6.03527, lat: 54.52337, population: 77506 },
    { name: 'Lisbon', region: 'Maine', country: 'United States', lon: -70.1045, lat: 44.03146, population: 9392 },
  ],
};

/** place/search: towns and cities by name, from the offline gazetteer (lib/places/). */
export const operation = defineOperation(import.meta.url, {
  path: 'place/search',
  kind: 'json',
  summary: 'Find cities and towns by name',
  description:
    "Searches GeoNames' cities and towns of 1,000 people or more (and seats of districts), offline: no geocoding service is asked. " +
    'Case and accents do not matter ("zurich" finds Zürich) and the beginning of a name is enough ("lisb"); a later word of a name ' +
    'matches too ("york" finds New York City). Places whose whole name is the query come first, then names that start with it, then ' +
    'names with a later word that does; among equal matches, the biggest population first. Text after a comma keeps the places whose ' +
    'region or country (its name, a word of it, or its code) starts with it: "Paris, Texas", "Portland, OR", "Lisbon, US". A query of ' +
    'no letters or digits finds nothing. Place data: GeoNames (geonames.org), CC BY 4.0.',
  args: placeSearchArgs,
  result: z.object({ places: z.array(placeSchema).describe('Best first') }),
  example: { args: { query: 'lisb', limit: 3 }, result: EXAMPLE },
  async handle(ctx, _deps, args) {
    const answer: PlaceSearchAnswer = { places: await searchPlaces(args.query, args.limit) };
    ctx.body = answer;
  },
});
