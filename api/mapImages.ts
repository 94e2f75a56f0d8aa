// A map's static image and thumbnail at its address: GET and HEAD of
// `{map url}/static.png` (1200×630) and `{map url}/thumbnail.png` (400×300), for everyone who may
// see the map (API clients send their key; others get 404, as for a map that does not exist).
// The renderer (issue 11) replaces the image under the same URL when a map is refreshed, so the
// answer is revalidated every time (`no-cache`) with an ETag that names the stored file: a 304
// costs one small query. Until a map's first image exists a placeholder is served, so embeds
// and map lists never show a broken image.
import type Router from '@koa/router';
import type { Context } from 'koa';
import type { Db } from '../db/connection.js';
import { findMapImageByAddress } from '../db/maps.js';
import { accessTo, canView } from '../lib/access.js';
import type { BlobStore } from '../lib/blobs/blobStore.js';
import { sharp } from '../lib/media/sharp.js';
import { optionalCaller } from './middleware/auth.js';

const SIZES = { static: { width: 1200, height: 630 }, thumbnail: { width: 400, height: 300 } } as const;
type ImageName = keyof typeof SIZES;

const placeholders = new Map<ImageName, Promise<Buffer>>();

/** A plain light-grey PNG of the image's size, made once per process. */
function placeholder(name: ImageName): Promise<Buffer> {
  let png = placeholders.get(name);
  if (!png) {
    const { width, height } = SIZES[name];
    png = sharp({ create: { width, height, channels: 3, background: '#e6eaee' } }).png({ compressionLevel: 9 }).toBuffer();
    placeholders.set(name, png);
  }
  return png;
}

function notFound(ctx: Context): void {
  ctx.status = 404;
  ctx.set('Cache-Control', 'no-store');
  ctx.body = { error: 'There is no such map, or you may not see it.', error_code: 'map_not_found' };
}

function serve(db: Db, blobs: BlobStore, name: ImageName) {
  return async (ctx: Context) => {
    const caller = await optionalCaller(db, ctx.get('authorization'));
    const found = await findMapImageByAddress(db, ctx.params.owner ?? '', ctx.params.shortName ?? '', caller?.userId ?? null);
    if (!found || !canView(accessTo(found.map, caller?.userId ?? 0, found.role))) return notFound(ctx);
    const visibleToAll = found.map.visibility === 'public' || found.map.visibility === 'unlisted';
    ctx.set('Cache-Control', visibleToAll ? 'public, no-cache' : 'private, no-cache');
    if (!visibleToAll) ctx.set('Vary', 'Authorization');
    const file = found.files?.[name];
    const etag = file ? `"${file.key.replace(/[^A-Za-z0-9._-]/g, '_')}"` : `"placeholder-${name}"`;
    ctx.set('ETag', etag);
    if (ctx.get('if-none-match').split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag)) {
      ctx.status = 304;
      return;
    }
    ctx.type = 'image/png';
    if (file && (await blobs.exists(file.key))) {
      // HEAD: no file is opened (Koa would not read it); the headers say what GET sends.
      ctx.body = ctx.method === 'HEAD' ? '' : blobs.readStream(file.key);
      ctx.length = file.size;
      return;
    }
    const png = await placeholder(name);
    ctx.body = ctx.method === 'HEAD' ? '' : png;
    ctx.length = png.length;
  };
}

export function mountMapImages(router: Router, db: Db, blobs: BlobStore): void {
  router.get('/:owner/:shortName/static.png', serve(db, blobs, 'static'));
  router.get('/:owner/:shortName/thumbnail.png', serve(db, blobs, 'thumbnail'));
}
