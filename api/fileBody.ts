// Streams a request body into the blob store with the upload cap enforced while streaming:
// a declared Content-Length over the cap is refused before reading, and an undeclared body is
// cut off at the first byte past it. Nothing is buffered in memory.
import type { Context } from 'koa';
import { BlobTooLargeError, REQUEST_PREFIXES, type BlobStore, type StoredBlob } from '../lib/blobs/blobStore.js';
import { AppError } from '../lib/errors.js';

function tooLarge(ctx: Context, maxBytes: number): AppError {
  // The rest of the body is not read: close the connection after answering.
  ctx.set('Connection', 'close');
  const mb = maxBytes / (1024 * 1024);
  return new AppError('file_too_large', `The file is larger than the upload limit of ${mb} MB.`);
}

export async function receiveFile(ctx: Context, blobs: BlobStore, maxBytes: number | null): Promise<StoredBlob> {
  const declared = Number(ctx.get('content-length') || Number.NaN);
  if (maxBytes !== null && declared > maxBytes) throw tooLarge(ctx, maxBytes);
  if (declared === 0) throw new AppError('missing_file', 'The request body is empty; send the file as the body.');
  let stored: StoredBlob;
  try {
    stored = await blobs.putStream(REQUEST_PREFIXES.upload, ctx.req, maxBytes);
  } catch (error) {
    if (error instanceof BlobTooLargeError) throw tooLarge(ctx, error.maxBytes);
    throw new AppError('missing_file', 'The upload was interrupted before the whole file arrived.');
  }
  if (stored.size === 0) {
    await blobs.delete(stored.key);
    throw new AppError('missing_file', 'The request body is empty; send the file as the body.');
  }
  return stored;
}
