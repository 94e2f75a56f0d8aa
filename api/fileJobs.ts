// What the file operations (map/upload, map/append, image/upload, marker/upload) share: the job's id (the client's Idempotency-Key, scoped to
// the user and the operation, or a fresh one), the fingerprint that tells a retry of a request
// from another request under the same key, and running the job with the received file.
import { createHash, randomUUID } from 'node:crypto';
import type { Context } from 'koa';
import type { Config } from '../lib/config.js';
import { AppError } from '../lib/errors.js';
import { callerOf, type ApiDeps } from './context.js';
import type { ReceivedFile } from './fileBody.js';
import { requestContextOf } from './requestContext.js';

const KEY_PATTERN = /^[A-Za-z0-9_.:-]{1,200}$/;

/** Optional Idempotency-Key header: letters, digits and -_.: up to 200 characters (present but empty is refused). */
function idempotencyKey(ctx: Context): string | undefined {
  const key = ctx.headers['idempotency-key'];
  if (key === undefined) return undefined;
  if (typeof key !== 'string' || !KEY_PATTERN.test(key)) {
    throw new AppError('invalid_arguments', 'The Idempotency-Key header must hold 1 to 200 letters, digits, "-", "_", "." or ":".');
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
export function clientGone(ctx: Context): AbortSignal {
  const controller = new AbortController();
  ctx.res.once('close', () => {
    if (!ctx.res.writableFinished) controller.abort();
  });
  return controller.signal;
}

/** The job's id, and whether the client named it (an Idempotency-Key): then a retry joins the same job. */
export function jobIdFor(ctx: Context, operation: 'upload' | 'append' | 'image' | 'marker'): { workflowId: string; keyed: boolean } {
  const key = idempotencyKey(ctx);
  return key
    ? { workflowId: `${operation}:${callerOf(ctx).userId}:${key}`, keyed: true }
    : { workflowId: `${operation}:${randomUUID()}`, keyed: false };
}

/** What makes two requests the same request: the operation, its arguments and the file's bytes. */
function fingerprint(operation: string, args: Record<string, unknown>, file: ReceivedFile | null): string {
  const names = Object.keys(args).sort();
  return createHash('sha256')
    .update(JSON.stringify([operation, names.map((name) => [name, args[name]]), file?.sha256 ?? null]))
    .digest('hex');
}

export interface FileJob {
  operation: string;
  workflowType: string;
  workflowId: string;
  keyed: boolean;
  args: Record<string, unknown>;
  input: object;
  file: ReceivedFile | null;
}

/**
 * Runs the workflow and waits for its result within bounds. The job this request starts takes
 * over the received file and removes it when it ends (also when this client has gone away and
 * a retry joins it); the file is removed here when no job of this request took it over.
 */
export async function runFileJob<R>(ctx: Context, { config, blobs, jobs }: Pick<ApiDeps, 'config' | 'blobs' | 'jobs'>, job: FileJob): Promise<R> {
  let adopted = false;
  try {
    return await jobs.run<R>(job.workflowType, job.input, {
      workflowId: job.workflowId,
      waitMs: jobWaitMs(config),
      signal: clientGone(ctx),
      request: job.keyed ? fingerprint(job.operation, job.args, job.file) : undefined,
      file: job.file ? { key: job.file.key, onAdopted: (byJob) => (adopted = byJob) } : undefined,
      requestContext: requestContextOf(ctx),
    });
  } finally {
    if (job.file && !adopted) await blobs.delete(job.file.key);
  }
}
