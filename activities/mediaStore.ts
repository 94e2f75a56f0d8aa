// Processing an upload and keeping the result: derivatives into the blob store (images/…,
// markers/…), then the row. With a caller-chosen id the store is idempotent: a retried
// activity returns the row of its first run, and a run that loses a race removes its blobs.
import type { Db } from '../db/connection.js';
import { findImage, findMarker, insertImage, insertMarker } from '../db/media.js';
import { STORED_FILE_PREFIXES, type BlobStore } from '../lib/blobs/blobStore.js';
import type { Derivative } from '../lib/media/derivatives.js';
import { isMediaId, newImageId, newMarkerId } from '../lib/media/ids.js';
import { processImage, type ImageOptions } from '../lib/media/processImage.js';
import { processMarker, type MarkerOptions } from '../lib/media/processMarker.js';
import type { ImageRecord, MarkerRecord, StoredDerivative } from '../lib/media/records.js';
import { faultPoint } from './faultPoints.js';

const IMAGE_BLOB_PREFIX = STORED_FILE_PREFIXES.image;
const MARKER_BLOB_PREFIX = STORED_FILE_PREFIXES.marker;

export interface StoreOptions {
  /** An id made by newImageId/newMarkerId before the first attempt, for idempotent retries. */
  id?: string;
}

/** The file's bytes, or how to read them: not read at all when the media is stored already. */
export type MediaBytes = Uint8Array | (() => Promise<Uint8Array>);

const bytesOf = (bytes: MediaBytes): Promise<Uint8Array> => (typeof bytes === 'function' ? bytes() : Promise.resolve(bytes));

function chosenId(options: StoreOptions, make: () => string): string {
  if (options.id === undefined) return make();
  if (!isMediaId(options.id)) throw new Error('media id must be 16 base62 characters');
  return options.id;
}

function ownedBy<R extends { ownerId: number }>(record: R | undefined, ownerId: number): R {
  // Ids are random: another owner's row under the same id means a caller reused an id.
  if (!record || record.ownerId !== ownerId) throw new Error('media id already belongs to another owner');
  return record;
}

/** Deletes the derivatives' blobs; missing blobs are fine, failures are left to the cleanup. */
export async function deleteDerivativeBlobs(blobs: BlobStore, derivatives: readonly StoredDerivative[]): Promise<void> {
  await Promise.allSettled(derivatives.map((d) => blobs.delete(d.key)));
}

async function putDerivatives(blobs: BlobStore, prefix: string, derivatives: Derivative[]): Promise<StoredDerivative[]> {
  const stored: StoredDerivative[] = [];
  try {
    for (const d of derivatives) {
      const blob = await blobs.putBuffer(prefix, d.bytes);
      stored.push({ name: d.name, width: d.width, height: d.height, contentType: d.contentType, key: blob.key, size: blob.size });
    }
  } catch (error) {
    await deleteDerivativeBlobs(blobs, stored);
    throw error;
  }
  return stored;
}

/** Inserts with the stored derivatives; on conflict or failure the blobs go again. */
async function insertOrReuse<R extends { ownerId: number }>(
  blobs: BlobStore,
  derivatives: StoredDerivative[],
  ownerId: number,
  insert: () => Promise<R | undefined>,
  find: () => Promise<R | undefined>,
): Promise<R> {
  let inserted: R | undefined;
  try {
    await faultPoint('media-files-stored');
    inserted = await insert();
  } catch (error) {
    await deleteDerivativeBlobs(blobs, derivatives);
    throw error;
  }
  if (inserted) return inserted;
  await deleteDerivativeBlobs(blobs, derivatives);
  return ownedBy(await find(), ownerId);
}

/**
 * Processes a JPEG/PNG upload and stores it. Throws AppError unsupported_file_type,
 * image_too_large, invalid_image or processing_timeout for bad input.
 */
export async function storeImage(
  db: Db,
  blobs: BlobStore,
  ownerId: number,
  bytes: MediaBytes,
  options: StoreOptions & ImageOptions = {},
): Promise<ImageRecord> {
  const id = chosenId(options, newImageId);
  if (options.id !== undefined) {
    const existing = await findImage(db, id);
    if (existing) return ownedBy(existing, ownerId);
  }
  const { derivatives: files, ...fields } = await processImage(await bytesOf(bytes), { declared: options.declared });
  const derivatives = await putDerivatives(blobs, IMAGE_BLOB_PREFIX, files);
  return insertOrReuse(
    blobs,
    derivatives,
    ownerId,
    () => insertImage(db, { id, ownerId, ...fields, blobPrefix: IMAGE_BLOB_PREFIX, derivatives }),
    () => findImage(db, id),
  );
}

/**
 * Processes a marker icon and stores it. By default PNG, JPEG and GIF are accepted (KMZ
 * icons); the marker/upload API passes `accepted: ['png']`.
 */
export async function storeMarker(
  db: Db,
  blobs: BlobStore,
  ownerId: number,
  bytes: MediaBytes,
  options: StoreOptions & MarkerOptions = {},
): Promise<MarkerRecord> {
  const id = chosenId(options, newMarkerId);
  if (options.id !== undefined) {
    const existing = await findMarker(db, id);
    if (existing) return ownedBy(existing, ownerId);
  }
  const { derivatives: files, width, height } = await processMarker(await bytesOf(bytes), { accepted: options.accepted, declared: options.declared });
  const derivatives = await putDerivatives(blobs, MARKER_BLOB_PREFIX, files);
  return insertOrReuse(
    blobs,
    derivatives,
    ownerId,
    () => insertMarker(db, { id, ownerId, width, height, blobPrefix: MARKER_BLOB_PREFIX, derivatives }),
    () => findMarker(db, id),
  );
}
