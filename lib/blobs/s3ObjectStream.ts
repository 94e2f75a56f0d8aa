// One S3 object's bytes (or a range of them) as a Node stream that asks S3 only when first read,
// so a stream that is made but never read (a HEAD, a 304) costs no request, and destroying it
// (a client that went away) aborts the request. Reading a range that starts past the end gives
// no bytes, as reading a local file does.
import { Readable } from 'node:stream';
import { GetObjectCommand, type S3Client } from '@aws-sdk/client-s3';

export interface ObjectSource {
  client: S3Client;
  bucket: string;
  key: string;
  range?: { start: number; end: number };
}

export class S3ObjectStream extends Readable {
  private readonly abort = new AbortController();
  private body: Readable | undefined;
  private started = false;

  constructor(private readonly source: ObjectSource) {
    super({ highWaterMark: 256 * 1024 });
  }

  override _read(): void {
    if (this.body) {
      this.body.resume();
      return;
    }
    if (this.started) return;
    this.started = true;
    const { client, bucket, key, range } = this.source;
    client
      .send(new GetObjectCommand({ Bucket: bucket, Key: key, Range: range && `bytes=${range.start}-${range.end}` }), { abortSignal: this.abort.signal })
      .then(
        (answer) => this.follow(answer.Body as Readable),
        (error: { name?: string }) => {
          if (error?.name === 'InvalidRange') this.push(null);
          else this.destroy(error as Error);
        },
      );
  }

  private follow(body: Readable): void {
    if (this.destroyed) {
      body.destroy();
      return;
    }
    this.body = body;
    body.on('data', (chunk: Buffer) => {
      if (!this.push(chunk)) body.pause();
    });
    body.once('end', () => this.push(null));
    body.once('error', (error) => this.destroy(error));
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.abort.abort();
    this.body?.destroy();
    callback(error);
  }
}
