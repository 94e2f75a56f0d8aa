// What map/upload and map/append share: the job's id (the client's Idempotency-Key, scoped to
// the user and the operation, or a fresh one) and running it with the received file.
import { randomUUID } from 'node:crypto';
import type { Context } from 'koa';
import type { StoredBlob } from '../lib/blobs/blobStore.js';
import { callerOf, clientGone, idempotencyKey, jobWaitMs, type ApiDeps } from './context.js';

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
