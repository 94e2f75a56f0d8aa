// JSON operations take their arguments as a JSON object in the body, whatever Content-Type the
// client sent (curl -d sends a form type): the body is read (decoded per Content-Encoding, at
// most the upload limit), then checked against the operation's schema, in an argument thread
// when it is large. The validated arguments are ctx.state.args, the body's decoded size
// ctx.state.bodyBytes (context.ts bodyBytesOf).
import type { Middleware } from 'koa';
import { AppError } from '../../lib/errors.js';
import { bodyArguments, INLINE_BODY_BYTES } from '../argumentThreads.js';
import type { Turns } from '../turns.js';
import type { Operation } from '../operation.js';
import { checkContentEncoding, contentEncoding, readBody } from '../requestBody.js';

/** Without an upload limit (enterprise), JSON bodies still have one. */
const UNLIMITED_JSON_BYTES = 256 * 1024 * 1024;

/**
 * `largeBodies`: turns for bodies over 64 kB (a body may be up to the upload limit, and is held
 * until its request ends): a request whose body is large takes one before reading it (or when
 * an undeclared body grows past 64 kB), and waits, or gets server_busy, when all are taken.
 */
export function jsonArgs(operation: Operation, maxUploadBytes: number | null, largeBodies: Turns): Middleware {
  const maxBytes = maxUploadBytes ?? UNLIMITED_JSON_BYTES;
  const tooLarge = () => new AppError('file_too_large', `The request body is larger than the limit of ${maxBytes / (1024 * 1024)} MB.`);
  return async (ctx, next) => {
    checkContentEncoding(ctx);
    const declared = Number(ctx.get('content-length') || Number.NaN);
    if (contentEncoding(ctx) === 'identity' && declared > maxBytes) {
      ctx.set('Connection', 'close');
      throw tooLarge();
    }
    let release: (() => void) | undefined;
    try {
      const large = async () => {
        release ??= await largeBodies.take();
      };
      if (declared > INLINE_BODY_BYTES) await large();
      const bytes = await readBody(
        ctx,
        maxBytes,
        () => {
          ctx.set('Connection', 'close');
          return tooLarge();
        },
        { bytes: INLINE_BODY_BYTES, reached: large },
      );
      ctx.state.bodyBytes = bytes.length;
      ctx.state.args = await bodyArguments(operation, bytes);
      await next();
    } finally {
      release?.();
    }
  };
}
