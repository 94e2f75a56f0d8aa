// Streams a file request's body into the blob store with the upload cap enforced while
// streaming: a declared Content-Length over the cap is refused before reading, and a body is
// cut off at the first byte past it. A compressed body (Content-Encoding) is decoded on the way
// and the cap counts decoded bytes (requestBody.ts). Nothing is buffered in memory; the bytes
// are hashed as they pass, so a repeated Idempotency-Key can be told from a reused one. The web
// editor's Import streams a multipart form's file part the same way (api/web/formFile.ts). A
// stored file is charged its size (rate limits: api/rateCharges.ts) before any job runs on it.
import { createHash } from 'node:crypto';
import { Transform, type Readable } from 'node:stream';
import type { Context } from 'koa';
import { BlobStorageError, BlobTooLargeError, REQUEST_PREFIXES, type BlobStore, type StoredBlob } from '../lib/blobs/blobStore.js';
import { AppError } from '../lib/errors.js';
import { chargeFileBytes } from './rateCharges.js';
import { BodyEncodingError, contentEncoding, decodedBody, through } from './requestBody.js';

export function tooLarge(ctx: Context, maxBytes: number): AppError {
  // The rest of the body is not read: close the connection after answering.
  ctx.set('Connection', 'close');
  const mb = maxBytes / (1024 * 1024);
  return new AppError('file_too_large', `The file is larger than the upload limit of ${mb} MB.`);
}

const noFile = () => new AppError('missing_file', 'The request body is empty; send the file as the body.');

export interface ReceivedFile extends StoredBlob {
  /** SHA-256 of the file's (decoded) bytes, hex. */
  sha256: string;
}

export async function receiveFile(ctx: Context, blobs: BlobStore, maxBytes: number | null): Promise<ReceivedFile> {
  const declared = Number(ctx.get('content-length') || Number.NaN);
  const identity = contentEncoding(ctx) === 'identity';
  if (identity && maxBytes !== null && declared > maxBytes) throw tooLarge(ctx, maxBytes);
  if (declared === 0) throw noFile();
  return storeUpload(ctx, blobs, decodedBody(ctx), maxBytes, noFile);
}

/**
 * Streams an uploaded file's bytes (the body, or a multipart form's file part) into the blob
 * store under the cap, hashing them; `empty` is the error for a file of no bytes.
 */
export async function storeUpload(ctx: Context, blobs: BlobStore, source: Readable, maxBytes: number | null, empty: () => AppError): Promise<ReceivedFile> {
  const hash = createHash('sha256');
  const hashing = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      done(null, chunk);
    },
  });
  let stored: StoredBlob;
  try {
    stored = await blobs.putStream(REQUEST_PREFIXES.upload, through(source, hashing), maxBytes);
  } catch (error) {
    if (error instanceof BlobTooLargeError) throw tooLarge(ctx, error.maxBytes);
    // The store failed, not the client: an internal error, logged for the operator.
    if (error instanceof BlobStorageError) throw error;
    if (error instanceof BodyEncodingError) {
      ctx.set('Connection', 'close');
      throw error;
    }
    throw new AppError('missing_file', 'The upload was interrupted before the whole file arrived.');
  }
  try {
    if (stored.size === 0) throw empty();
    // Its size, now known (a body sent compressed or without a length): the rest of its cost.
    await chargeFileBytes(ctx, stored.size);
  } catch (error) {
    await blobs.delete(stored.key);
    throw error;
  }
  return { ...stored, sha256: hash.digest('hex') };
}
