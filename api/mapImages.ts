// A map's static image and thumbnail at its address: GET and HEAD of
// `{map url}/static.png` (1200×630) and `{map url}/thumbnail.png` (400×300), for everyone who may
// see the map (API clients send their key, browsers their session cookie; others get 404, as for
// a map that does not exist).
// The renderer (activities/renderMapImage.ts) replaces the image under the same URL when a map is refreshed, so the
// answer is revalidated every time (`no-cache`) with an ETag that names the stored file: a 304
// costs one small query. Until a map's first image exists a placeholder is served, so embeds
// and map lists never show a broken image. With BLOB_SERVE=redirect, a stored image is a 302 to the storage
// (api/blobAnswer.ts).
import type Router from '@koa/router';
import type { Context } from 'koa';
import type { Db } from '../db/connection.js';
import { visibleToAnyone } from '../lib/access.js';
import type { BlobStore } from '../lib/blobs/blobStore.js';
import { sharp } from '../lib/media/sharp.js';
import { answerBlob } from './blobAnswer.js';
import { answerFile, notFound } from './fileAnswer.js';
import { lookUpMapAddress, redirectToMoved } from './mapAddress.js';
import { viewerIdOf } from './viewerId.js';

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

function serve(db: Db, blobs: BlobStore, name: ImageName) {
  const viewerId = viewerIdOf(db);
  return async (ctx: Context) => {
    // An API client's key, or the browser's session (My maps shows private maps' thumbnails).
    const userId = await viewerId(ctx);
    const address = await lookUpMapAddress(db, ctx.params.owner ?? '', ctx.params.shortName ?? '', userId);
    if (address.kind === 'moved') return redirectToMoved(ctx, address.path, `/${name}.png`);
    if (address.kind === 'none') return notFound(ctx, 'map_not_found', 'There is no such map, or you may not see it.');
    const { found } = address;
    const visibleToAll = visibleToAnyone(found.map);
    const answer = { cacheControl: visibleToAll ? 'public, no-cache' : 'private, no-cache', perCaller: !visibleToAll, contentType: 'image/png' };
    const file = found.files?.[name];
    if (file && (await blobs.exists(file.key))) {
      const etag = `"${file.key.replace(/[^A-Za-z0-9._-]/g, '_')}"`;
      return answerBlob(ctx, blobs, { ...answer, key: file.key, etag, size: file.size });
    }
    const png = await placeholder(name);
    answerFile(ctx, { ...answer, etag: `"placeholder-${name}"`, size: png.length, open: () => png });
  };
}

export function mountMapImages(router: Router, db: Db, blobs: BlobStore): void {
  router.get('/:owner/:shortName/static.png', serve(db, blobs, 'static'));
  router.get('/:owner/:shortName/thumbnail.png', serve(db, blobs, 'thumbnail'));
}
