import { randomUUID } from 'node:crypto';
import { AppError } from '../../../lib/errors.js';
import { isImportSupported } from '../../../lib/formats/index.js';
import { WORKFLOW_TYPES, type UploadMapInput, type UploadMapResult } from '../../../lib/jobContracts.js';
import { callerOf, clientGone, idempotencyKey, jobWaitMs, parseArgs, type Handler } from '../../context.js';
import { receiveFile } from '../../fileBody.js';
import { mapUploadArgs } from '../../schemas.js';
import { mapFileView } from '../../views.js';

/** map/upload: streams the file to the blob store and runs the upload workflow on it. */
export const mapUpload: Handler = async (ctx, { config, blobs, jobs }) => {
  const args = parseArgs(ctx, mapUploadArgs);
  const { userId } = callerOf(ctx);
  const key = idempotencyKey(ctx);
  if (args.file_type !== 'empty' && !isImportSupported(args.file_type)) {
    throw new AppError('unsupported_file_type', `Importing ${args.file_type} files is not available yet.`);
  }
  const blob = args.file_type === 'empty' ? null : await receiveFile(ctx, blobs, config.maxUploadBytes);
  const workflowId = key ? `upload:${userId}:${key}` : `upload:${randomUUID()}`;
  const input: UploadMapInput = {
    requestId: workflowId,
    ownerId: userId,
    fileType: args.file_type,
    blobKey: blob?.key ?? null,
    settings: {
      visibility: args.visibility,
      title: args.title,
      description: args.description,
      shortName: args.short_name,
    },
    processingTimeoutMs: config.processingTimeoutMs,
  };
  try {
    const result = await jobs.run<UploadMapResult>(WORKFLOW_TYPES.uploadMap, input, {
      workflowId,
      waitMs: jobWaitMs(config),
      signal: clientGone(ctx),
    });
    ctx.body = mapFileView(config.publicUrl, result.map, blob ? result.import : undefined);
  } finally {
    // The workflow deletes its own blobs; this one is left over when a repeated key joined an earlier job.
    if (blob) await blobs.delete(blob.key);
  }
};
