// Streams bytes into one S3 object without holding the whole file: a body that fits in one part
// is one PutObject; a larger one becomes a multipart upload whose parts are sent while the next
// one is read (two parts in memory at most). With a byte cap, the first byte past it aborts the
// multipart upload, so the bucket keeps nothing of it (not even invisible parts, which S3 would
// bill until a lifecycle rule removed them). Parts carry CRC32 checksums, declared when the
// upload is created, so S3 checks every part and the whole (whatever the SDK's default
// checksum setting). (@aws-sdk/lib-storage does the same with more parts in flight; it is not
// installed, and the cap needs to act inside the loop anyway.)
import type { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  PutObjectCommand,
  UploadPartCommand,
  type CompletedPart,
  type S3Client,
} from '@aws-sdk/client-s3';
import { BlobStorageError, BlobTooLargeError } from './blobStore.js';

/** S3's least part size (every part but the last): the smallest memory per upload. */
export const PART_BYTES = 5 * 1024 * 1024;
/** S3 allows 10,000 parts: the part size doubles every 1,000 parts, so no size runs out of parts. */
const PARTS_PER_SIZE = 1000;

export interface ObjectTarget {
  client: S3Client;
  bucket: string;
  key: string;
  contentType?: string;
}

/** Uploads `source` to the target; returns its size. The source is destroyed when this fails. */
export async function uploadStream(target: ObjectTarget, source: Readable, maxBytes: number | null, partBytes = PART_BYTES): Promise<number> {
  const { client, bucket, key } = target;
  // S3's failures are told from the source's (a client that went away) by their class.
  const storage = <T>(what: string, request: Promise<T>): Promise<T> =>
    request.catch((error: Error) => {
      throw new BlobStorageError(`S3 ${what} of ${bucket}/${key} failed: ${error.name}: ${error.message}`, { cause: error });
    });
  let size = 0;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let uploadId: string | undefined;
  const parts: CompletedPart[] = [];
  let inFlight: Promise<void> = Promise.resolve();

  const sendPart = async () => {
    const body = Buffer.concat(pending, pendingBytes);
    pending = [];
    pendingBytes = 0;
    await inFlight; // one part on its way while the next is read
    uploadId ??= (await storage('CreateMultipartUpload', client.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: key, ContentType: target.contentType, ChecksumAlgorithm: 'CRC32' })))).UploadId;
    const partNumber = parts.length + 1;
    parts.push({ PartNumber: partNumber });
    inFlight = storage('UploadPart', client.send(new UploadPartCommand({ Bucket: bucket, Key: key, UploadId: uploadId, PartNumber: partNumber, Body: body, ContentLength: body.length, ChecksumAlgorithm: 'CRC32' }))).then((answer) => {
      parts[partNumber - 1] = { PartNumber: partNumber, ETag: answer.ETag, ChecksumCRC32: answer.ChecksumCRC32 };
    });
    inFlight.catch(() => undefined); // awaited by the next part or the end; never unhandled
  };

  try {
    for await (const chunk of source as AsyncIterable<Buffer | string>) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      size += bytes.length;
      if (maxBytes !== null && size > maxBytes) throw new BlobTooLargeError(maxBytes);
      pending.push(bytes);
      pendingBytes += bytes.length;
      if (pendingBytes >= partBytes * 2 ** Math.floor(parts.length / PARTS_PER_SIZE)) await sendPart();
    }
    if (uploadId === undefined && parts.length === 0) {
      const body = Buffer.concat(pending, pendingBytes);
      await storage('PutObject', client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body, ContentLength: body.length, ContentType: target.contentType })));
      return size;
    }
    if (pendingBytes > 0) await sendPart();
    await inFlight;
    await storage('CompleteMultipartUpload', client.send(new CompleteMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId: uploadId, MultipartUpload: { Parts: parts } })));
    return size;
  } catch (error) {
    source.destroy();
    await inFlight.catch(() => undefined);
    if (uploadId !== undefined) {
      await client.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId: uploadId })).catch(() => undefined);
    }
    throw error;
  }
}
