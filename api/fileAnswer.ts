// What the file routes (stored images and markers, maps' static images) share: the answer of a
// file with its ETag and cache headers, 304 to a matching If-None-Match, HEAD with the headers
// alone; and their 404, a JSON error like the API's.
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
  /** The bytes, opened only for a GET that gets them. */
  open(): Readable | Buffer;
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
  if (file.perCaller) ctx.set('Vary', 'Authorization');
  if (matches(ctx.get('if-none-match'), file.etag)) {
    ctx.status = 304;
    return;
  }
  ctx.type = file.contentType;
  // HEAD: nothing is opened (Koa would not read it); the headers say what GET sends.
  ctx.body = ctx.method === 'HEAD' ? '' : file.open();
  ctx.length = file.size;
}

export function notFound(ctx: Context, code: ErrorCode, message: string): void {
  ctx.status = 404;
  ctx.set('Cache-Control', 'no-store');
  ctx.body = { error: message, error_code: code };
}
