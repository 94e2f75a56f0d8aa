// map/append: parse the file within the processing limit, then append it to the map atomically.
import { CancellationScope } from '@temporalio/workflow';
import type { AppendMapInput, AppendMapResult, ParseFileResult } from '../lib/jobContracts.js';
import { toWorkflowFailure } from './activityFailures.js';
import { parsing, writing } from './activityOptions.js';
import { withProcessingLimit } from './processingLimit.js';

const TABLE_TYPES = new Set(['csv', 'excel']);

export async function appendMap(input: AppendMapInput): Promise<AppendMapResult> {
  let parsed: ParseFileResult | null = null;
  try {
    parsed = await withProcessingLimit(input.processingTimeoutMs, () =>
      parsing.parseFile({ requestId: input.requestId, userId: input.userId, blobKey: input.blobKey, fileType: input.fileType }),
    );
    const { map, added } = await writing.appendToMap({
      requestId: input.requestId,
      mapId: input.mapId,
      userId: input.userId,
      parsed,
      newGroup: input.newGroup,
      keepSubgroups: TABLE_TYPES.has(input.fileType),
    });
    return { map, import: { features: added, skipped: parsed.skipped } };
  } catch (error) {
    throw toWorkflowFailure(error);
  } finally {
    const keys = [input.blobKey, parsed?.parsedKey].filter((key): key is string => !!key);
    await CancellationScope.nonCancellable(() => writing.deleteBlobs({ keys }));
  }
}
