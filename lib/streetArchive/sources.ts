// Byte ranges of the street map archive, as the `pmtiles` package reads them (its `Source`): a
// local file (one handle, opened at start, read at offsets), an S3 object (GetObject with a
// Range), a URL (the package's own FetchSource). Each holds to the archive it first saw: a file
// replaced on disk is not seen (the handle keeps the old one until a restart), an S3 object or a
// URL that changed is refused (If-Match on the ETag, or the package's own ETag check), so tiles
// of two archives are never mixed under one identity.
import fs from 'node:fs/promises';
import { GetObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { EtagMismatch, FetchSource, type RangeResponse, type Source } from 'pmtiles';

/** A problem of the archive itself (not found, not readable, truncated, changed), worded for the operator. */
export class ArchiveProblem extends Error {
  override name = 'ArchiveProblem';
}

/** How long one read of a URL may take (the package's FetchSource has no timeout of its own). */
const URL_READ_TIMEOUT_MS = 10_000;

/** Something that may be closed when the archive is (a file handle, a client). */
export interface ClosableSource extends Source {
  close(): Promise<void>;
}

export class FileRangeSource implements ClosableSource {
  private constructor(
    private readonly path: string,
    private readonly handle: fs.FileHandle,
  ) {}

  static async open(path: string): Promise<FileRangeSource> {
    let handle: fs.FileHandle;
    try {
      handle = await fs.open(path, 'r');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') throw new ArchiveProblem('there is no such file');
      if (code === 'EACCES' || code === 'EPERM') throw new ArchiveProblem('the file cannot be read (permission denied)');
      throw new ArchiveProblem(`the file cannot be opened (${code ?? (error as Error).message})`);
    }
    if (!(await handle.stat()).isFile()) {
      await handle.close();
      throw new ArchiveProblem('is not a file');
    }
    return new FileRangeSource(path, handle);
  }

  getKey(): string {
    return this.path;
  }

  async getBytes(offset: number, length: number): Promise<RangeResponse> {
    const bytes = new Uint8Array(length);
    const { bytesRead } = await this.handle.read(bytes, 0, length, offset);
    return { data: bytesRead === length ? bytes.buffer : bytes.buffer.slice(0, bytesRead) };
  }

  close(): Promise<void> {
    return this.handle.close();
  }
}

const s3Status = (error: unknown): { name: string; status: number | undefined } => {
  const { name = '', $metadata } = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return { name, status: $metadata?.httpStatusCode };
};

export class S3RangeSource implements ClosableSource {
  /** The object's ETag at the first read; later reads ask for that version only. */
  private etag: string | undefined;

  constructor(
    private readonly client: S3Client,
    private readonly bucket: string,
    private readonly key: string,
  ) {}

  getKey(): string {
    return `s3://${this.bucket}/${this.key}`;
  }

  async getBytes(offset: number, length: number, signal?: AbortSignal): Promise<RangeResponse> {
    try {
      const answer = await this.client.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: this.key, Range: `bytes=${offset}-${offset + length - 1}`, IfMatch: this.etag }),
        { abortSignal: signal },
      );
      this.etag ??= answer.ETag;
      const bytes = await answer.Body!.transformToByteArray();
      return { data: bytes.byteLength === bytes.buffer.byteLength ? (bytes.buffer as ArrayBuffer) : bytes.slice().buffer };
    } catch (error) {
      const { name, status } = s3Status(error);
      if (name === 'NoSuchKey' || (status === 404 && name !== 'NoSuchBucket')) throw new ArchiveProblem('there is no such object in the bucket');
      if (name === 'NoSuchBucket') throw new ArchiveProblem('the bucket does not exist');
      if (status === 403) throw new ArchiveProblem('access denied (the credentials need s3:GetObject on the object)');
      if (status === 412) throw new ArchiveProblem('the object changed since the service started (a new archive needs a restart)');
      if (name === 'InvalidRange' || status === 416) return { data: new ArrayBuffer(0) }; // past its end, as a file reads
      throw error;
    }
  }

  async close(): Promise<void> {
    this.client.destroy();
  }
}

/** The package's FetchSource, with a timeout and its ETag mismatch made final (no silent switch to a new archive). */
export class UrlRangeSource implements ClosableSource {
  private readonly fetchSource: FetchSource;
  private etag: string | undefined;

  constructor(private readonly url: string) {
    this.fetchSource = new FetchSource(url);
  }

  getKey(): string {
    return this.url;
  }

  async getBytes(offset: number, length: number, signal?: AbortSignal): Promise<RangeResponse> {
    try {
      const answer = await this.fetchSource.getBytes(offset, length, signal ?? AbortSignal.timeout(URL_READ_TIMEOUT_MS), this.etag);
      this.etag ??= answer.etag;
      return answer;
    } catch (error) {
      if (error instanceof EtagMismatch) {
        throw new ArchiveProblem('the server answered with another version of the file, or none past this point (changed or truncated since the service started)');
      }
      const message = (error as Error).message;
      const status = /Bad response code: (\d+)/.exec(message)?.[1];
      if (status) throw new ArchiveProblem(`the server answered HTTP ${status}`);
      throw new ArchiveProblem(`cannot be read: ${(error as Error & { cause?: Error }).cause?.message ?? message}`);
    }
  }

  async close(): Promise<void> {}
}
