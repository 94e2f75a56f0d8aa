import { randomUUID } from 'node:crypto';
import { AppError } from '../../../lib/errors.js';
import { isImportSupported } from '../../../lib/formats/index.js';
import { WORKFLOW_TYPES, type AppendMapInput, type AppendMapResult } from '../../../lib/jobContracts.js';
import { callerOf, clientGone, idempotencyKey, jobWaitMs, mapFor, parseArgs, type Handler } from '../../context.js';
import { receiveFile } from '../../fileBody.js';
import { mapAppendArgs } from '../../schemas.js';
import { mapFileView } from '../../views.js';

/** map/append: streams the file to the blob store and runs the append workflow on it. */
export const mapAppend: Handler = async (ctx, { config, db, blobs, jobs }) => {
  const args = parseArgs(ctx, mapAppendArgs);
  const { userId } = callerOf(ctx);
  const key = idempotencyKey(ctx);
  // Refuse early, before the body is read; the append activity checks again under the lock.
  await mapFor(db, args.map_id, userId, 'edit');
  if (!isImportSupported(args.file_type)) {
    throw new AppError('unsupported_file_type', `Importing ${args.file_type} files is not available yet.`);
  }
  const blob = await receiveFile(ctx, blobs, config.maxUploadBytes);
  const workflowId = key ? `append:${userId}:${key}` : `append:${randomUUID()}`;
  const input: AppendMapInput = {
    requestId: workflowId,
    mapId: args.map_id,
    userId,
    fileType: args.file_type,
    blobKey: blob.key,
    newGroup: args.new_group,
    processingTimeoutMs: config.processingTimeoutMs,
  };
  try {
    const result = await jobs.run<AppendMapResult>(WORKFLOW_TYPES.appendMap, input, {
      workflowId,
      waitMs: jobWaitMs(config),
      signal: clientGone(ctx),
    });
    ctx.body = mapFileView(config.publicUrl, result.map, result.import);
  } finally {
    await blobs.delete(blob.key);
  }
};
