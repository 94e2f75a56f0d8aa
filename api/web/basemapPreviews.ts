// The pictures of the basemap chooser in a map's settings (lib/render/basemapPreview.ts):
//   GET /assets/basemap-previews/<basemap>.png       every basemap of the catalogue, public: the
//       built-in ones as they are, a commercial one veiled (it is drawn only with a key)
//   GET /maps/{id}/basemap-previews/<basemap>.png    a commercial basemap drawn from its provider's
//       tiles with the map owner's key (added here, never sent to the browser), for the owner and
//       the editors of the map (who may choose its basemap); without the key, or when the provider
//       refuses it or does not answer, the veiled picture; an operator's basemap that needs no key
//       (BASEMAPS_EXTRA) drawn from its tiles the same way.
// The public pictures are drawn once per process and kept (8 small PNGs).
import type Router from '@koa/router';
import type { Context } from 'koa';
import type { Db } from '../../db/connection.js';
import { findMapWithRole } from '../../db/maps.js';
import { findProviderKey } from '../../db/providerKeys.js';
import { accessTo, canEdit } from '../../lib/access.js';
import { basemapById, type Basemap } from '../../lib/basemaps.js';
import { renderBasemapPreview } from '../../lib/render/basemapPreview.js';
import { xyzPainter, type TileSettings } from '../../lib/render/xyzBackground.js';
import { viewerOf } from './forms.js';

/** `<basemap>.png` → the basemap, or undefined. */
const basemapOfFile = (file: string | undefined): Basemap | undefined => {
  const match = /^([a-z0-9-]{1,40})\.png$/.exec(file ?? '');
  return match ? basemapById(match[1]!) : undefined;
};

const publicPreviews = new Map<string, Promise<Buffer>>();

/** The public picture (the veiled one for a commercial basemap), drawn at its first request. */
function publicPreview(basemap: Basemap): Promise<Buffer> {
  let made = publicPreviews.get(basemap.id);
  if (!made) {
    made = renderBasemapPreview(basemap);
    made.catch(() => publicPreviews.delete(basemap.id)); // tried again at the next request
    publicPreviews.set(basemap.id, made);
  }
  return made;
}

function sendPng(ctx: Context, bytes: Buffer, cacheControl: string): void {
  ctx.set('Cache-Control', cacheControl);
  ctx.type = 'image/png';
  ctx.body = bytes;
}

/** The public pictures (on the router that holds the other /assets/ files). */
export function mountBasemapPreviews(router: Router): void {
  router.get('/assets/basemap-previews/:file', async (ctx) => {
    const basemap = basemapOfFile(ctx.params.file);
    if (!basemap) return; // the 404 page
    sendPng(ctx, await publicPreview(basemap), 'public, max-age=86400');
  });
}

/** A commercial basemap with the owner's key (on the pages' router: it reads the browser's session). */
export function mountMapBasemapPreviews(router: Router, deps: { db: Db; tiles: TileSettings }): void {
  router.get('/maps/:id/basemap-previews/:file', async (ctx) => {
    const basemap = basemapOfFile(ctx.params.file);
    const viewer = viewerOf(ctx);
    const id = Number(ctx.params.id);
    const found = basemap && viewer && Number.isSafeInteger(id) && id > 0 ? await findMapWithRole(deps.db, id, viewer.id) : undefined;
    if (!basemap || !viewer || !found || !canEdit(accessTo(found.map, viewer.id, found.role))) return; // the 404 page
    const keyless = basemap.providerKind === null && basemap.drawing.type === 'xyz';
    const key = basemap.providerKind ? await findProviderKey(deps.db, found.map.ownerId, basemap.providerKind) : keyless ? '' : undefined;
    if (key === undefined) return sendPng(ctx, await publicPreview(basemap), 'private, no-cache');
    // Tiles that need no key are the same for everyone: cached once for all (account 0), as the browser's.
    const owner = { accountId: keyless ? 0 : found.map.ownerId, key };
    try {
      sendPng(ctx, await renderBasemapPreview(basemap, xyzPainter(basemap, owner, deps.tiles)), 'private, max-age=86400');
    } catch {
      // A refused key or a provider that does not answer: the veiled picture, asked for again next time.
      sendPng(ctx, await publicPreview(basemap), 'private, no-store');
    }
  });
}
