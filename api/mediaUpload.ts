// What image/upload and marker/upload share: the file into the blob store, then the uploadMedia
// workflow, whose activity processes and stores it on the `media` task queue.
import type { Context } from 'koa';
import { WORKFLOW_TYPES, type MediaFileType, type MediaKind, type UploadMediaInput, type UploadMediaResult } from '../lib/jobContracts.js';
import { callerOf, type ApiDeps } from './context.js';
import { receiveFile } from './fileBody.js';
import { jobIdFor, runFileJob } from './fileJobs.js';

export const MEDIA_LIMITS =
  'Limits: the file may be at most 15 MB and its processing may take at most 2 minutes (an enterprise deployment has no upload limits); ' +
  'an image may have at most 100 megapixels (a marker 25) and no side over 65,535 pixels (`image_too_large`); ' +
  'the type is told by the file\'s first bytes, never by file_type alone.';

export async function uploadMedia(ctx: Context, deps: ApiDeps, kind: MediaKind, args: { file_type: MediaFileType }): Promise<UploadMediaResult> {
  const { workflowId, keyed } = jobIdFor(ctx, kind);
  const file = await receiveFile(ctx, deps.blobs, deps.config.maxUploadBytes);
  const input: UploadMediaInput = {
    requestId: workflowId,
    ownerId: callerOf(ctx).userId,
    kind,
    fileType: args.file_type,
    blobKey: file.key,
    mediaTaskQueue: deps.config.mediaTaskQueue,
    processingTimeoutMs: deps.config.processingTimeoutMs,
  };
  return runFileJob<UploadMediaResult>(ctx, deps, {
    operation: `${kind}/upload`,
    workflowType: WORKFLOW_TYPES.uploadMedia,
    workflowId,
    keyed,
    args,
    input,
    file,
  });
}
