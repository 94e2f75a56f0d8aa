import { WORKFLOW_TYPES, type UploadMapInput, type UploadMapResult } from '../../../lib/jobContracts.js';
import { callerOf, parseArgs, type Handler } from '../../context.js';
import { receiveFile } from '../../fileBody.js';
import { jobIdFor, runFileJob } from '../../fileJobs.js';
import { mapUploadArgs } from '../../schemas.js';
import { mapFileView } from '../../views.js';

/** map/upload: streams the file to the blob store and runs the upload workflow on it. */
export const mapUpload: Handler = async (ctx, deps) => {
  const args = parseArgs(ctx, mapUploadArgs);
  const workflowId = jobIdFor(ctx, 'upload');
  const blob = args.file_type === 'empty' ? null : await receiveFile(ctx, deps.blobs, deps.config.maxUploadBytes);
  const input: UploadMapInput = {
    requestId: workflowId,
    ownerId: callerOf(ctx).userId,
    fileType: args.file_type,
    blobKey: blob?.key ?? null,
    settings: {
      visibility: args.visibility,
      title: args.title,
      description: args.description,
      shortName: args.short_name,
    },
    processingTimeoutMs: deps.config.processingTimeoutMs,
  };
  const result = await runFileJob<UploadMapResult>(ctx, deps, { workflowType: WORKFLOW_TYPES.uploadMap, workflowId, input, blob });
  ctx.body = mapFileView(deps.config.publicUrl, result.map, blob ? result.import : undefined);
};
