// Request bodies, one rule for JSON and file operations: a body may be sent as is or compressed
// with Content-Encoding gzip (x-gzip), deflate or br; it is decoded while it streams, limits
// count the decoded bytes, and a body that is not valid data in its encoding, or an encoding the
// service does not read, is refused with invalid_content_encoding.
import { PassThrough, pipeline, type Readable, type Transform } from 'node:stream';
import zlib from 'node:zlib';
import type { Context } from 'koa';
import { AppError } from '../lib/errors.js';

/** A decoder failed on the client's bytes (a corrupt or truncated compressed body). */
export class BodyEncodingError extends AppError {
  constructor(encoding: string) {
    super('invalid_content_encoding', `The request body is not valid ${encoding} data (Content-Encoding: ${encoding}).`);
  }
}

function decoderFor(encoding: string): Transform | null {
  switch (encoding) {
    case 'identity':
      return null;
    case 'gzip':
    case 'x-gzip':
    case 'deflate':
      // Unzip reads gzip and zlib streams (what "deflate" means in HTTP) by their header.
      return zlib.createUnzip();
    case 'br':
      return zlib.createBrotliDecompress();
    default:
      throw new AppError(
        'invalid_content_encoding',
        `The request body's Content-Encoding "${encoding.slice(0, 40)}" is not one the service reads (gzip, deflate, br or none).`,
      );
  }
}

/** The Content-Encoding, lower case; '' or "identity" when the body is sent as is. */
export const contentEncoding = (ctx: Context): string => ctx.get('content-encoding').trim().toLowerCase() || 'identity';

/** Refuses an encoding the service cannot read before any of the body is read. */
export function checkContentEncoding(ctx: Context): void {
  decoderFor(contentEncoding(ctx))?.destroy();
}

/**
 * The request body as decoded bytes. A decoder's failure surfaces as BodyEncodingError on the
 * returned stream; the client going away as an error too. The request itself is never destroyed
 * here (that would close the connection before the error could be answered): on a failure it is
 * only let go, and drainOnError reads what is left of it.
 */
export function decodedBody(ctx: Context): Readable {
  const encoding = contentEncoding(ctx);
  const decoder = decoderFor(encoding);
  const out = new PassThrough();
  const first = decoder ?? out;
  const req = ctx.req;
  const interrupted = () => first.destroy(new Error('the request body was interrupted'));
  req.once('aborted', interrupted);
  req.once('error', interrupted);
  first.once('close', () => {
    req.off('aborted', interrupted);
    req.off('error', interrupted);
  });
  req.pipe(first);
  if (decoder !== null) {
    // Before pipeline's own listener, so the stream fails with this error rather than zlib's.
    decoder.once('error', () => out.destroy(new BodyEncodingError(encoding)));
    pipeline(decoder, out, () => {});
  }
  // A client gone before the body is read (while the key and arguments were checked): its events
  // have passed, and the piped body would never end.
  if (req.readableAborted) interrupted();
  return out;
}

/** `transform` fed from `source`: an error or an early end of either fails both. */
export function through(source: Readable, transform: Transform): Transform {
  pipeline(source, transform, () => {});
  return transform;
}

/**
 * The decoded body's bytes, at most maxBytes of them (null: no limit). `threshold.reached` is
 * awaited once when the body grows past `threshold.bytes` (before more of it is read).
 */
export async function readBody(
  ctx: Context,
  maxBytes: number | null,
  tooLarge: () => AppError,
  threshold?: { bytes: number; reached: () => Promise<void> },
): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  const body = decodedBody(ctx);
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      const before = size;
      size += chunk.length;
      if (maxBytes !== null && size > maxBytes) throw tooLarge();
      if (threshold && before <= threshold.bytes && size > threshold.bytes) await threshold.reached();
      chunks.push(chunk);
    }
  } catch (error) {
    body.destroy();
    if (error instanceof AppError) throw error;
    throw new AppError('invalid_json', 'The request body was interrupted before it was complete.');
  }
  return Buffer.concat(chunks, size);
}

