// Serving stored images and markers: GET and HEAD of /images/<id>/<size>.<ext> and
// /markers/<id>/<size>.png (size: s2048, s1024, s512, s256 for images; s128, s64 for markers).
// A size larger than the image was stored in answers the largest stored one. The files never
// change under a URL (an id is never reused), so browsers keep them for a year as immutable, with
// an ETag; `public` when a public or unlisted map uses the media, `private` otherwise. Who may
// fetch a file can change, though (its map made private): shared caches may keep a public one
// only while they ask again each time (`s-maxage=0`, answered by a 304 while it is still public,
// by a 404 from then on), so a change of visibility takes effect at once. Who may
// fetch: the uploader and everyone who may see a map that uses the media (API clients send
// their key, browsers their session); everyone else gets 404, the same answer as
// for an id that does not exist. With BLOB_SERVE=redirect, a GET of someone who may see the file is a 302 to
// the storage (api/blobAnswer.ts).
import type Router from '@koa/router';
import type { Context } from 'koa';
import type { Db } from '../db/connection.js';
import { findServableMedia } from '../db/media.js';
import type { BlobStore } from '../lib/blobs/blobStore.js';
import { pickDerivative } from '../lib/media/derivatives.js';
import { isMediaId } from '../lib/media/ids.js';
import { answerBlob } from './blobAnswer.js';
import { notFound } from './fileAnswer.js';
import { viewerIdOf } from './viewerId.js';

const YEAR_SECONDS = 365 * 24 * 60 * 60;
const FILE_NAME = /^s(\d{1,5})(?:\.(jpg|png))?$/;
const EXTENSION: Record<string, string> = { 'image/jpeg': 'jpg', 'image/png': 'png' };

const missing = (ctx: Context) => notFound(ctx, 'media_not_found', 'There is no such image or marker, or you may not see it.');

function serve(db: Db, blobs: BlobStore, kind: 'image' | 'marker') {
  const viewerId = viewerIdOf(db);
  return async (ctx: Context) => {
    const id = ctx.params.id ?? '';
    const name = FILE_NAME.exec(ctx.params.file ?? '');
    if (!isMediaId(id) || !name) return missing(ctx);
    const media = await findServableMedia(db, kind, id, await viewerId(ctx));
    if (!media || !(media.publicUse || media.callerMaySee)) return missing(ctx);
    const derivative = pickDerivative(media.derivatives, Number(name[1]));
    if (!derivative || (name[2] !== undefined && EXTENSION[derivative.contentType] !== name[2])) return missing(ctx);
    if (!(await blobs.exists(derivative.key))) return missing(ctx);
    await answerBlob(ctx, blobs, {
      key: derivative.key,
      etag: `"${id}-${derivative.name}-${derivative.size}"`,
      cacheControl: media.publicUse ? `public, max-age=${YEAR_SECONDS}, s-maxage=0, immutable` : `private, max-age=${YEAR_SECONDS}, immutable`,
      perCaller: !media.publicUse,
      contentType: derivative.contentType,
      size: derivative.size,
    });
  };
}

export function mountMediaFiles(router: Router, db: Db, blobs: BlobStore): void {
  router.get('/images/:id/:file', serve(db, blobs, 'image'));
  router.get('/markers/:id/:file', serve(db, blobs, 'marker'));
}
