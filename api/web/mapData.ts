// A map's GeoJSON for its page's front end: GET {map url}/map.geojson, for whoever may see the
// map (an API client by its key, a browser by its session), streamed as map/get streams it, with
// the revision it is of in X-Map-Revision.
import { Readable } from 'node:stream';
import type Router from '@koa/router';
import type { Db } from '../../db/connection.js';
import { openMapDocument } from '../../db/mapDocument.js';
import { visibleToAnyone } from '../../lib/access.js';
import { notFound } from '../fileAnswer.js';
import { lookUpMapAddress, redirectToMoved } from '../mapAddress.js';
import { chargeMapRead } from '../rateCharges.js';
import { viewerIdOf } from '../viewerId.js';

export function mountMapData(router: Router, db: Db): void {
  const viewerId = viewerIdOf(db);
  router.get('/:owner/:shortName/map.geojson', async (ctx) => {
    const userId = await viewerId(ctx);
    const address = await lookUpMapAddress(db, ctx.params.owner ?? '', ctx.params.shortName ?? '', userId);
    if (address.kind === 'moved') return redirectToMoved(ctx, address.path, '/map.geojson');
    const found = address.kind === 'map' ? address.found : undefined;
    // A large map costs more from the rate limits, as map/get does (refused before it is read).
    if (found) await chargeMapRead(ctx, found.map.contentBytes);
    const read = found ? await openMapDocument(db, found.map.id) : undefined;
    if (!found || !read) return notFound(ctx, 'map_not_found', 'There is no such map, or you may not see it.');
    ctx.set('Cache-Control', visibleToAnyone(found.map) ? 'public, no-cache' : 'private, no-store');
    ctx.type = 'application/geo+json';
    // The revision this document is of: the editor's saves are made on it.
    ctx.set('X-Map-Revision', String(read.revision));
    const body = Readable.from(read.text);
    body.once('close', () => void read.close());
    ctx.body = body;
  });
}
