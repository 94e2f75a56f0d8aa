// map/upload: parse the file, then create the map, both within the processing limit (the write
// enforces the deadline itself, see processingLimit.ts). The request's blobs are removed however
// it ends. The new map's first image is rendered by its map-image workflow, started here and left
// running: the upload answers without waiting for it.
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import { CancellationScope, ParentClosePolicy, startChild } from '@temporalio/workflow';
import { mapImageWorkflowId } from '../lib/jobContracts.js';
import type { ParseFileResult, UploadMapInput, UploadMapResult } from '../lib/jobContracts.js';
import { toWorkflowFailure } from './activityFailures.js';
import { mapImage } from './mapImage.js';
import { parsing, writing } from './activityOptions.js';
import { deadlineOf, withProcessingLimit } from './processingLimit.js';

export async function uploadMap(input: UploadMapInput): Promise<UploadMapResult> {
  const limitMs = input.processingTimeoutMs;
  const deadline = deadlineOf(limitMs);
  let parsed: ParseFileResult | null = null;
  try {
    if (input.fileType !== 'empty' && input.blobKey) {
      const blobKey = input.blobKey;
      const fileType = input.fileType;
      parsed = await withProcessingLimit(deadline, limitMs, () =>
        parsing.parseFile({ requestId: input.requestId, userId: input.ownerId, blobKey, fileType }),
      );
    }
    const map = await writing.createMap({
      requestId: input.requestId,
      ownerId: input.ownerId,
      parsed,
      settings: input.settings,
      deadline,
    });
    if (input.image) await startFirstImage(map.id, input.image);
    return { map, import: { features: parsed?.features ?? 0, skipped: parsed?.skipped ?? [] } };
  } catch (error) {
    throw toWorkflowFailure(error, limitMs);
  } finally {
    const keys = [input.blobKey, parsed?.parsedKey].filter((key): key is string => !!key);
    if (keys.length > 0) await CancellationScope.nonCancellable(() => writing.deleteBlobs({ keys }));
  }
}

async function startFirstImage(mapId: number, image: NonNullable<UploadMapInput['image']>): Promise<void> {
  try {
    await startChild(mapImage, {
      workflowId: mapImageWorkflowId(mapId),
      args: [{ mapId, renderTaskQueue: image.renderTaskQueue, spacingMs: image.spacingMs, initialRender: true }],
      parentClosePolicy: ParentClosePolicy.ABANDON,
    });
  } catch (error) {
    // A retried upload (the same map) finds it started already.
    if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
  }
}
