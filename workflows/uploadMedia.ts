// image/upload and marker/upload: the file is processed and stored by an activity on the
// `media` task queue, within the processing limit. The activity removes the request's file once
// the media is stored; the workflow removes it when the request fails, however it fails.
import { CancellationScope, proxyActivities } from '@temporalio/workflow';
import type { MediaActivities } from '../activities/index.js';
import type { UploadMediaInput, UploadMediaResult } from '../lib/jobContracts.js';
import { toWorkflowFailure } from './activityFailures.js';
import { writing } from './activityOptions.js';
import { deadlineOf, withProcessingLimit } from './processingLimit.js';

export async function uploadMedia(input: UploadMediaInput): Promise<UploadMediaResult> {
  const limitMs = input.processingTimeoutMs;
  const deadline = deadlineOf(limitMs);
  // Heartbeats carry the processing limit's cancellation; bad input is never retried.
  const { storeMediaUpload } = proxyActivities<MediaActivities>({
    taskQueue: input.mediaTaskQueue,
    startToCloseTimeout: '10 minutes',
    heartbeatTimeout: '30 seconds',
    cancellationType: 'TRY_CANCEL',
    retry: { maximumAttempts: 3 },
  });
  try {
    return await withProcessingLimit(deadline, limitMs, () =>
      storeMediaUpload({ requestId: input.requestId, ownerId: input.ownerId, kind: input.kind, fileType: input.fileType, blobKey: input.blobKey }),
    );
  } catch (error) {
    await CancellationScope.nonCancellable(() => writing.deleteBlobs({ keys: [input.blobKey] }));
    throw toWorkflowFailure(error, limitMs);
  }
}
