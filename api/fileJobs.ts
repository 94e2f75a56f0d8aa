// What map/upload and map/append share: the job's id (the client's Idempotency-Key, scoped to
// the user and the operation, or a fresh one) and running it with the received file.
import { randomUUID } from 'node:crypto';
import type { Context } from 'koa';
import type { StoredBlob } from '../lib/blobs/blobStore.js';
import type { Config } from '../lib/config.js';
import { AppError } from '../lib/errors.js';
import { callerOf, type ApiDeps } from './context.js';

/** Optional Idempotency-Key header: letters, digits and -_.: up to 200 characters. */
function idempotencyKey(ctx: Context): string | undefined {
  const key = ctx.get('idempotency-key');
  if (!key) return undefined;
  if (!/^[A-Za-z0-9_.:-]{1,200}$/.test(key)) {
    throw new AppError('invalid_arguments', 'The Idempotency-Key header may hold up to 200 letters, digits, "-", "_", "." or ":".');
  }
  return key;
}

/**
 * How long the API waits for a file job: the processing limit (which the workflow holds its
 * parse and its final write to) and a margin for dispatch and the removal of the request's files.
 */
const jobWaitMs = (config: Config): number | null =>
  config.processingTimeoutMs === null ? null : config.processingTimeoutMs + 30_000;

/** An AbortSignal that fires when the HTTP client goes away before the answer. */
function clientGone(ctx: Context): AbortSignal {
  const controller = new AbortController();
  ctx.res.once('close', () => {
    if (!ctx.res.writableFinished) controller.abort();
  });
  return controller.signal;
}

export function jobIdFor(ctx: Context, operation: 'upload' | 'append'): string {
  const key = idempotencyKey(ctx);
  return key ? `${operation}:${callerOf(ctx).userId}:${key}` : `${operation}:${randomUUID()}`;
}

/** Runs the workflow and waits for its result within bounds; then removes the received file. */
export async function runFileJob<R>(
  ctx: Context,
  { config, blobs, jobs }: ApiDeps,
  job: { workflowType: string; workflowId: string; input: object; blob: StoredBlob | null },
): Promise<R> {
  try {
    return await jobs.run<R>(job.workflowType, job.input, {
      workflowId: job.workflowId,
      waitMs: jobWaitMs(config),
      signal: clientGone(ctx),
    });
  } finally {
    // The workflow deletes its own blobs; this one is left over when a repeated key joined an earlier job.
    if (job.blob) await blobs.delete(job.blob.key);
  }
}
