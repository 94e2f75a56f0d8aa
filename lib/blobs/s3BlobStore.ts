// BlobStore on S3-compatible object storage (BLOB_STORE=s3://bucket/prefix), for API and worker
// processes on several machines. A blob `<prefix>/<uuid>` is the object `<root><prefix>/<uuid>`.
// Objects appear whole or not at all (PutObject, CompleteMultipartUpload), so a reader never sees
// half a blob; an upload cut off midway leaves at most an unfinished multipart upload, which
// removeOlderThan aborts. Files that parser threads read and write live in a local directory
// (localScratch.ts) and are removed when their user is done.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  AbortMultipartUploadCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { checkedKey, checkedPrefix, ENTRY_NAME, newKey } from './blobKeys.js';
import { notKept, SWEEP_BATCH, type BlobStore, type KeepBlobs, type StoredBlob } from './blobStore.js';
import { LocalScratch } from './localScratch.js';
import { S3ObjectStream } from './s3ObjectStream.js';
import { PART_BYTES, uploadStream } from './s3Upload.js';

export interface S3BlobStoreOptions {
  client: S3Client;
  bucket: string;
  /** Prepended to every key: '' or ending in '/'. */
  root: string;
  /** The local directory of scratch files and copies. */
  scratchDir: string;
  /**
   * BLOB_SERVE=redirect: the client that signs direct download URLs (its endpoint is the one
   * browsers reach). Unset: blobs are streamed through the service.
   */
  signer?: S3Client;
  partBytes?: number;
}

/**
 * Signed URLs are made for windows of this length and valid for two: every request in a window
 * gets the same URL (browsers can cache what it answers), which works for 5 to 10 minutes.
 */
export const SIGNED_URL_WINDOW_SECONDS = 5 * 60;

const isNotFound = (error: unknown): boolean => {
  const { name, $metadata } = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return name === 'NotFound' || name === 'NoSuchKey' || $metadata?.httpStatusCode === 404;
};

export class S3BlobStore implements BlobStore {
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly root: string;
  private readonly scratch: LocalScratch;
  private readonly partBytes: number;

  constructor(private readonly options: S3BlobStoreOptions) {
    this.client = options.client;
    this.bucket = options.bucket;
    this.root = options.root;
    this.scratch = new LocalScratch(options.scratchDir);
    this.partBytes = options.partBytes ?? PART_BYTES;
  }

  private objectKey(key: string): string {
    return this.root + checkedKey(key);
  }

  async putStream(prefix: string, source: Readable, maxBytes: number | null): Promise<StoredBlob> {
    const key = newKey(prefix);
    const size = await uploadStream({ client: this.client, bucket: this.bucket, key: this.objectKey(key) }, source, maxBytes, this.partBytes);
    return { key, size };
  }

  async putBuffer(prefix: string, bytes: Uint8Array): Promise<StoredBlob> {
    const key = newKey(prefix);
    await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key), Body: bytes, ContentLength: bytes.byteLength }));
    return { key, size: bytes.byteLength };
  }

  async read(key: string): Promise<Buffer> {
    const answer = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
    const bytes = await answer.Body!.transformToByteArray();
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  readStream(key: string, range?: { start: number; end: number }): Readable {
    return new S3ObjectStream({ client: this.client, bucket: this.bucket, key: this.objectKey(key), range });
  }

  async localFile(key: string): Promise<string> {
    const file = await this.scratch.copyFile();
    try {
      await pipeline(this.readStream(key), fs.createWriteStream(file));
    } catch (error) {
      await fsp.rm(file, { force: true });
      throw error;
    }
    return file;
  }

  scratchFile(): Promise<string> {
    return this.scratch.scratchFile();
  }

  async adoptFile(prefix: string, file: string): Promise<StoredBlob> {
    if (!this.scratch.isScratchFile(file)) throw new Error(`not a scratch file of this store: ${file.slice(0, 200)}`);
    const stored = await this.putStream(prefix, fs.createReadStream(file, { highWaterMark: 256 * 1024 }), null);
    await fsp.rm(file, { force: true });
    return stored;
  }

  discardFile(file: string): Promise<void> {
    return this.scratch.discard(file);
  }

  async delete(key: string): Promise<void> {
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
  }

  async exists(key: string): Promise<boolean> {
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
      return true;
    } catch (error) {
      if (isNotFound(error)) return false;
      throw error;
    }
  }

  /**
   * `scratch`: the local scratch files and copies. Any other prefix: its objects last written
   * before the cutoff, and its unfinished multipart uploads started before it (uploads of a
   * process that stopped midway).
   */
  async removeOlderThan(prefix: string, cutoff: number, keep?: KeepBlobs): Promise<number> {
    if (prefix === 'scratch') return this.scratch.removeOlderThan(cutoff);
    const listed = this.root + checkedPrefix(prefix) + '/';
    let removed = 0;
    let token: string | undefined;
    do {
      const page = await this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: listed, ContinuationToken: token }));
      const old = (page.Contents ?? []).filter(
        (object) => ENTRY_NAME.test(object.Key!.slice(listed.length)) && object.LastModified !== undefined && object.LastModified.getTime() < cutoff,
      );
      // A page holds at most 1,000 objects, as a DeleteObjects request and a `keep` call take.
      for (let at = 0; at < old.length; at += SWEEP_BATCH) {
        const keys = old.slice(at, at + SWEEP_BATCH).map((object) => object.Key!.slice(this.root.length));
        const batch = await notKept(keys, keep);
        if (batch.length === 0) continue;
        const answer = await this.client.send(
          new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: batch.map((key) => ({ Key: this.root + key })), Quiet: true } }),
        );
        const failed = (answer.Errors ?? []).filter((error) => error.Code !== 'NoSuchKey');
        if (failed.length > 0) throw new Error(`S3 refused to delete ${failed.length} objects under ${listed}: ${failed[0]!.Code} ${failed[0]!.Message ?? ''}`);
        removed += batch.length;
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    removed += await this.abortUploadsOlderThan(listed, cutoff);
    return removed;
  }

  private async abortUploadsOlderThan(listed: string, cutoff: number): Promise<number> {
    let aborted = 0;
    let keyMarker: string | undefined;
    let uploadIdMarker: string | undefined;
    for (;;) {
      const page = await this.client.send(
        new ListMultipartUploadsCommand({ Bucket: this.bucket, Prefix: listed, KeyMarker: keyMarker, UploadIdMarker: uploadIdMarker }),
      );
      for (const upload of page.Uploads ?? []) {
        if (!upload.Initiated || upload.Initiated.getTime() >= cutoff) continue;
        await this.client.send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: upload.Key, UploadId: upload.UploadId })).catch((error) => {
          if (!isNotFound(error)) throw error;
        });
        aborted++;
      }
      if (!page.IsTruncated) return aborted;
      keyMarker = page.NextKeyMarker;
      uploadIdMarker = page.NextUploadIdMarker;
    }
  }

  async directUrl(key: string, answer: { contentType: string; cacheControl: string }): Promise<string | undefined> {
    const { signer } = this.options;
    if (!signer) return undefined;
    const windowMs = SIGNED_URL_WINDOW_SECONDS * 1000;
    const command = new GetObjectCommand({
      Bucket: this.bucket,
      Key: this.objectKey(key),
      ResponseContentType: answer.contentType,
      ResponseCacheControl: answer.cacheControl,
    });
    return getSignedUrl(signer, command, { expiresIn: 2 * SIGNED_URL_WINDOW_SECONDS, signingDate: new Date(Math.floor(Date.now() / windowMs) * windowMs) });
  }
}
