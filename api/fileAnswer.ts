// What the file routes (stored images and markers, maps' static images) share: the answer of a
// file with its ETag and cache headers, 304 to a matching If-None-Match, HEAD with the headers
// alone, one byte range (206) to a Range header (If-Range respected; several ranges get the whole
// file, which RFC 9110 allows); and their 404, a JSON error like the API's.
import type { Readable } from 'node:stream';
import type { Context } from 'koa';
import type { ErrorCode } from '../lib/errors.js';

export interface FileToAnswer {
  /** A quoted strong ETag. */
  etag: string;
  cacheControl: string;
  /** The answer depends on who asks (a private map's file): shared caches key it by the key sent. */
  perCaller: boolean;
  contentType: string;
  size: number;
  /**
   * The bytes, opened only for a GET that gets them: of the range only when one is given (a
   * Buffer of all `size` bytes is cut to it here).
   */
  open(range?: ByteRange): Readable | Buffer;
}

/** Bytes from start to end, both included. */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * The one range a Range header asks for: `bytes=a-b`, `bytes=a-` or `bytes=-n` (the last n);
 * 'unsatisfiable' when it starts past the end; undefined (send the whole file) for no header,
 * a header that is not one such range, or several ranges.
 */
export function requestedRange(header: string, size: number): ByteRange | 'unsatisfiable' | undefined {
  const match = /^bytes=(\d{0,15})-(\d{0,15})$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return undefined;
  if (match[1] === '') {
    const last = Number(match[2]);
    return last === 0 || size === 0 ? 'unsatisfiable' : { start: Math.max(0, size - last), end: size - 1 };
  }
  const start = Number(match[1]);
  if (match[2] !== '' && Number(match[2]) < start) return undefined; // not a valid range: ignored
  if (start >= size) return 'unsatisfiable';
  return { start, end: match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1) };
}

/** The If-None-Match header names this ETag (or is *). */
export function matches(header: string, etag: string): boolean {
  return header.split(',').some((tag) => {
    const value = tag.trim().replace(/^W\//, '');
    return value === '*' || value === etag;
  });
}

export function answerFile(ctx: Context, file: FileToAnswer): void {
  ctx.set('ETag', file.etag);
  ctx.set('Cache-Control', file.cacheControl);
  ctx.set('Accept-Ranges', 'bytes');
  if (file.perCaller) ctx.set('Vary', 'Authorization');
  if (matches(ctx.get('if-none-match'), file.etag)) {
    ctx.status = 304;
    return;
  }
  // If-Range: the range only of the file the client has part of (a date is not an ETag: whole file).
  const ifRange = ctx.get('if-range');
  const range = ifRange && ifRange !== file.etag ? undefined : requestedRange(ctx.get('range'), file.size);
  if (range === 'unsatisfiable') {
    ctx.status = 416;
    ctx.set('Content-Range', `bytes */${file.size}`);
    ctx.body = '';
    return;
  }
  ctx.type = file.contentType;
  if (range) {
    ctx.status = 206;
    ctx.set('Content-Range', `bytes ${range.start}-${range.end}/${file.size}`);
  }
  // HEAD: nothing is opened (Koa would not read it); the headers say what GET sends.
  ctx.body = ctx.method === 'HEAD' ? '' : cut(file.open(range), file.size, range);
  ctx.length = range ? range.end - range.start + 1 : file.size;
}

const cut = (bytes: Readable | Buffer, size: number, range: ByteRange | undefined): Readable | Buffer =>
  range && Buffer.isBuffer(bytes) && bytes.length === size ? bytes.subarray(range.start, range.end + 1) : bytes;

export function notFound(ctx: Context, code: ErrorCode, message: string): void {
  ctx.status = 404;
  ctx.set('Cache-Control', 'no-store');
  ctx.body = { error: message, error_code: code };
}
