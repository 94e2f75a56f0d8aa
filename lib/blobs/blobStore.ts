// Where file bytes live between the API and the workers (claim check: workflows only ever see
// a key). Local directory by default; an S3-compatible store implements the same interface.
import type { Readable } from 'node:stream';

/**
 * Where a file request keeps its files while it runs: the uploaded body, and its parsed form.
 * The request removes them when it ends; what is left older than a day is swept.
 */
export const REQUEST_PREFIXES = { upload: 'uploads', parsed: 'parsed' } as const;
/** Where the files rows point at live: images' and markers' derivatives, maps' static images and thumbnails. */
export const STORED_FILE_PREFIXES = { image: 'images', marker: 'markers', mapImage: 'map-images' } as const;

export interface StoredBlob {
  key: string;
  size: number;
}

export class BlobTooLargeError extends Error {
  override name = 'BlobTooLargeError';
  constructor(readonly maxBytes: number) {
    super(`blob exceeds ${maxBytes} bytes`);
  }
}

/**
 * The storage failed while a blob was written (a bucket that refuses, a server that cannot be
 * reached), not the bytes given to it: the operator's problem, never the client's.
 */
export class BlobStorageError extends Error {
  override name = 'BlobStorageError';
  constructor(message: string, options: { cause: unknown }) {
    super(message, options);
  }
}

/** Of these blobs' keys, the ones still in use (which a sweep must not remove). */
export type KeepBlobs = (keys: string[]) => Promise<ReadonlySet<string>>;

/** Keys per `keep` call, and per delete request to S3. */
export const SWEEP_BATCH = 1_000;

/** The keys of `keys` that `keep` does not keep (all of them without it). */
export async function notKept(keys: string[], keep: KeepBlobs | undefined): Promise<string[]> {
  if (!keep || keys.length === 0) return keys;
  const kept = await keep(keys);
  return keys.filter((key) => !kept.has(key));
}

export interface BlobStore {
  /**
   * Streams `source` into a new blob under `prefix`. With maxBytes, the first byte past the
   * limit aborts the write with BlobTooLargeError and nothing is kept.
   */
  putStream(prefix: string, source: Readable, maxBytes: number | null): Promise<StoredBlob>;
  putBuffer(prefix: string, bytes: Uint8Array): Promise<StoredBlob>;
  read(key: string): Promise<Buffer>;
  /** Streams the blob's bytes, or the bytes from start to end (inclusive) only. */
  readStream(key: string, range?: { start: number; end: number }): Readable;
  /**
   * A file on this machine with the blob's bytes, for code that reads files (parser threads).
   * Hand it to `discardFile` when done: a store whose blobs live elsewhere made it a copy.
   */
  localFile(key: string): Promise<string>;
  /**
   * A new, empty file on this machine for a blob that is written by other code (a parser
   * thread); `adoptFile` then stores it under a key, and `discardFile` removes it unused.
   */
  scratchFile(): Promise<string>;
  adoptFile(prefix: string, file: string): Promise<StoredBlob>;
  /** Removes a scratch file or a copy made by `localFile`; any other file is left alone. */
  discardFile(file: string): Promise<void>;
  /** Deleting a missing blob is not an error (deletes are retried by activities). */
  delete(key: string): Promise<void>;
  /**
   * Removes every blob under `prefix`, and every half-written one, last written before `cutoff`
   * (epoch ms); `scratch` names the scratch files. With `keep`, it is asked which of those old
   * blobs' keys (in batches of at most 1,000) are still in use, and those stay. Returns how many
   * were removed.
   */
  removeOlderThan(prefix: string, cutoff: number, keep?: KeepBlobs): Promise<number>;
  exists(key: string): Promise<boolean>;
  /**
   * A short-lived URL that clients may fetch the blob from themselves, when the store is set to
   * hand them out (BLOB_SERVE=redirect); absent or undefined: the service streams the bytes.
   */
  directUrl?(key: string, answer: { contentType: string; cacheControl: string }): Promise<string | undefined>;
}
