import { WORKFLOW_TYPES, type AppendMapInput, type AppendMapResult } from '../../../lib/jobContracts.js';
import { callerOf, mapFor, parseArgs, type Handler } from '../../context.js';
import { receiveFile } from '../../fileBody.js';
import { jobIdFor, runFileJob } from '../../fileJobs.js';
import { mapAppendArgs } from '../../schemas.js';
import { mapFileView } from '../../views.js';

/** map/append: streams the file to the blob store and runs the append workflow on it. */
export const mapAppend: Handler = async (ctx, deps) => {
  const args = parseArgs(ctx, mapAppendArgs);
  const { userId } = callerOf(ctx);
  const workflowId = jobIdFor(ctx, 'append');
  // Refuse early, before the body is read; the append activity checks again under the lock.
  await mapFor(deps.db, args.map_id, userId, 'edit');
  const blob = await receiveFile(ctx, deps.blobs, deps.config.maxUploadBytes);
  const input: AppendMapInput = {
    requestId: workflowId,
    mapId: args.map_id,
    userId,
    fileType: args.file_type,
    blobKey: blob.key,
    newGroup: args.new_group,
    processingTimeoutMs: deps.config.processingTimeoutMs,
  };
  const result = await runFileJob<AppendMapResult>(ctx, deps, { workflowType: WORKFLOW_TYPES.appendMap, workflowId, input, blob });
  ctx.body = mapFileView(deps.config.publicUrl, result.map, result.import);
};
