// The answer of a stored file (an image, a marker, a map's static image) from the blob store: the
// bytes streamed through the service with the route's ETag, 304 and ranges (fileAnswer.ts), or,
// with BLOB_SERVE=redirect, a 302 to a short-lived signed URL of the object, so the bytes go
// from the storage to the client directly. The route checks who may see the file first either
// way; a matching If-None-Match and a HEAD are still answered here (no URL needed).
import type { Context } from 'koa';
import type { BlobStore } from '../lib/blobs/blobStore.js';
import { answerFile, matches, type FileToAnswer } from './fileAnswer.js';

export async function answerBlob(ctx: Context, blobs: BlobStore, file: Omit<FileToAnswer, 'open'> & { key: string }): Promise<void> {
  if (ctx.method === 'GET' && !matches(ctx.get('if-none-match'), file.etag)) {
    const url = await blobs.directUrl?.(file.key, { contentType: file.contentType, cacheControl: file.cacheControl });
    if (url) {
      // The URL works for minutes and may grant a private file: no cache keeps the redirect.
      ctx.set('Cache-Control', 'no-store');
      ctx.redirect(url);
      return;
    }
  }
  answerFile(ctx, { ...file, open: (range) => blobs.readStream(file.key, range) });
}
