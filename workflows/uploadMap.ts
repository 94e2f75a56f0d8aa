// map/upload: parse the file and create the map within the processing limit (one activity that
// keeps the deadline itself since patch UPLOAD_DURING_PARSE, see below and processingLimit.ts). The request's blobs are removed however
// it ends. The new map's first image is rendered by its map-image workflow, started by the
// startMapImage local activity in the same workflow task as the write (issue 24): the upload
// answers once the map exists, waiting neither for the image nor for a child's start event.
// Histories from before (patch IMAGE_STARTED_BY_ACTIVITY absent) started it as a child workflow
// and waited for its start; they replay that way. Since patch UPLOAD_DURING_PARSE a file's parse
// and the map's creation are one activity (uploadDuringParse), its rows written while it parses.
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import { CancellationScope, ParentClosePolicy, patched, startChild } from '@temporalio/workflow';
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
  let blobsDeleted = false;
  const deleteRequestBlobs = async () => {
    blobsDeleted = true;
    const keys = [input.blobKey, parsed?.parsedKey].filter((key): key is string => !!key);
    if (keys.length > 0) await CancellationScope.nonCancellable(() => writing.deleteBlobs({ keys }));
  };
  try {
    if (input.fileType !== 'empty' && input.blobKey && patched(UPLOAD_DURING_PARSE)) {
      // One activity parses the file and creates the map, its rows going in while the file is
      // parsed; no workflow timer: the activity ends its parse at the deadline itself and never
      // commits after it, so its answer is the outcome (a timer's answer could race the commit).
      const created = await parsing.uploadDuringParse({
        requestId: input.requestId,
        ownerId: input.ownerId,
        fileType: input.fileType,
        blobKey: input.blobKey,
        settings: input.settings,
        deadline,
      });
      if (input.image) await Promise.all([startImageByActivity(created.map.id, input.image), deleteRequestBlobs()]);
      return created;
    }
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
    if (input.image) {
      // Both local activities at once: the start of the image's workflow and the request's clean-up.
      if (patched(IMAGE_STARTED_BY_ACTIVITY)) await Promise.all([startImageByActivity(map.id, input.image), deleteRequestBlobs()]);
      else await startFirstImage(map.id, input.image);
    }
    return { map, import: { features: parsed?.features ?? 0, skipped: parsed?.skipped ?? [] } };
  } catch (error) {
    throw toWorkflowFailure(error, limitMs);
  } finally {
    if (!blobsDeleted) await deleteRequestBlobs();
  }
}

/**
 * The patch id of the parse and the map's creation in one activity (issue 27). Histories from
 * before parsed and created in two activities and replay so.
 */
export const UPLOAD_DURING_PARSE = 'upload-during-parse';

/** The patch id of the image started by a local activity instead of a child workflow. */
export const IMAGE_STARTED_BY_ACTIVITY = 'image-started-by-activity';

async function startImageByActivity(mapId: number, image: NonNullable<UploadMapInput['image']>): Promise<void> {
  try {
    await writing.startMapImage({ mapId, renderTaskQueue: image.renderTaskQueue, spacingMs: image.spacingMs });
  } catch {
    // The map exists and the upload stands: it keeps its placeholder image until the next
    // refresh or save asks for one (the job server was unreachable through every retry).
  }
}

/** Before IMAGE_STARTED_BY_ACTIVITY: a child workflow, its start waited for. */
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
