// map/upload: parse the file within the processing limit, then create the map. The final write
// is never cut off halfway: the limit covers the processing of the file.
import { CancellationScope } from '@temporalio/workflow';
import type { ParseFileResult, UploadMapInput, UploadMapResult } from '../lib/jobContracts.js';
import { toWorkflowFailure } from './activityFailures.js';
import { parsing, writing } from './activityOptions.js';
import { withProcessingLimit } from './processingLimit.js';

export async function uploadMap(input: UploadMapInput): Promise<UploadMapResult> {
  let parsed: ParseFileResult | null = null;
  try {
    if (input.fileType !== 'empty' && input.blobKey) {
      const blobKey = input.blobKey;
      const fileType = input.fileType;
      parsed = await withProcessingLimit(input.processingTimeoutMs, () =>
        parsing.parseFile({ requestId: input.requestId, userId: input.ownerId, blobKey, fileType }),
      );
    }
    const map = await writing.createMap({
      requestId: input.requestId,
      ownerId: input.ownerId,
      parsed,
      settings: input.settings,
    });
    return { map, import: { features: parsed?.features ?? 0, skipped: parsed?.skipped ?? [] } };
  } catch (error) {
    throw toWorkflowFailure(error);
  } finally {
    const keys = [input.blobKey, parsed?.parsedKey].filter((key): key is string => !!key);
    if (keys.length > 0) await CancellationScope.nonCancellable(() => writing.deleteBlobs({ keys }));
  }
}
