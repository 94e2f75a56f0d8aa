// What image/upload and marker/upload share, and with them the web editor's uploads
// (api/web/editorEndpoints/mediaUpload.ts): the file into the blob store, then the uploadMedia workflow, whose
// activity processes and stores it on the `media` task queue.
import type { Context } from 'koa';
import { WORKFLOW_TYPES, type MediaFileType, type MediaKind, type UploadMediaInput, type UploadMediaResult } from '../lib/jobContracts.js';
import { callerOf, type ApiDeps } from './context.js';
import { receiveFile, type ReceivedFile } from './fileBody.js';
import { jobIdFor, runFileJob } from './fileJobs.js';

export const MEDIA_LIMITS =
  'Limits: the file may be at most 15 MB and its processing may take at most 2 minutes (an enterprise deployment has no upload limits); ' +
  'an image may have at most 100 megapixels (a marker 25) and no side over 65,535 pixels (`image_too_large`); ' +
  'the type is told by the file\'s first bytes, never by file_type alone.';

export interface MediaJob {
  kind: MediaKind;
  fileType: MediaFileType;
  /** Who uploads: the media's owner. */
  ownerId: number;
  /** The received file (the job takes it over and removes it). */
  file: ReceivedFile;
  workflowId: string;
  keyed: boolean;
  /** The operation's name and arguments (what a retry under the same Idempotency-Key must repeat). */
  operation: string;
  args: Record<string, unknown>;
}

/** Runs the uploadMedia workflow on a received file and waits for the stored image or marker. */
export function runMediaJob(ctx: Context, deps: Pick<ApiDeps, 'config' | 'blobs' | 'jobs'>, job: MediaJob): Promise<UploadMediaResult> {
  const input: UploadMediaInput = {
    requestId: job.workflowId,
    ownerId: job.ownerId,
    kind: job.kind,
    fileType: job.fileType,
    blobKey: job.file.key,
    mediaTaskQueue: deps.config.mediaTaskQueue,
    processingTimeoutMs: deps.config.processingTimeoutMs,
  };
  return runFileJob<UploadMediaResult>(ctx, deps, {
    operation: job.operation,
    workflowType: WORKFLOW_TYPES.uploadMedia,
    workflowId: job.workflowId,
    keyed: job.keyed,
    args: job.args,
    input,
    file: job.file,
  });
}

export async function uploadMedia(ctx: Context, deps: ApiDeps, kind: MediaKind, args: { file_type: MediaFileType }): Promise<UploadMediaResult> {
  const { workflowId, keyed } = jobIdFor(ctx, kind);
  const file = await receiveFile(ctx, deps.blobs, deps.config.maxUploadBytes);
  return runMediaJob(ctx, deps, { kind, fileType: args.file_type, ownerId: callerOf(ctx).userId, file, workflowId, keyed, operation: `${kind}/upload`, args });
}
