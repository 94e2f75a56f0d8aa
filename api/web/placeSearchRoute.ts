// The Find a place box's search (web/app/placeSearch.ts): GET /places/search?query=…&limit=…,
// the API's place/search for the site (api/routes/place/search.ts: the same arguments, checked by
// its schema, and the same answer, lib/places/placeSearch.ts's PlaceSearchAnswer). Public: a
// map's page is open to visitors without an account, and the answer says nothing about anyone's
// maps. An answer depends only on the query and the gazetteer package's version, so browsers may
// keep it for a day (typing back over a name asks nothing again). Errors are
// {"error", "error_code"} with HTTP 400; every request costs 1 from its address's rate limit.
import type Router from '@koa/router';
import { AppError } from '../../lib/errors.js';
import { searchPlaces } from '../../lib/places/index.js';
import type { PlaceSearchAnswer } from '../../lib/places/placeSearch.js';
import { placeSearchArgs } from '../routes/place/search.js';
import { describeZodError } from '../schemas.js';
import { jsonErrors } from './editorAccess.js';

export function mountPlaceSearch(router: Router): void {
  router.get('/places/search', jsonErrors, async (ctx) => {
    const { query, limit } = ctx.query;
    // A number in the query string is text: written in digits, or refused as the API refuses it.
    const given = { query, ...(limit === undefined ? {} : { limit: typeof limit === 'string' && /^\d{1,6}$/.test(limit) ? Number(limit) : limit }) };
    const parsed = placeSearchArgs.safeParse(given);
    if (!parsed.success) throw new AppError('invalid_arguments', describeZodError(parsed.error, given));
    const answer: PlaceSearchAnswer = { places: await searchPlaces(parsed.data.query, parsed.data.limit) };
    ctx.set('Cache-Control', 'public, max-age=86400');
    ctx.body = answer;
  });
}
