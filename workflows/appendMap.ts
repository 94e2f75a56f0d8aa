// map/append: parse the file and append it to the map atomically, within the processing limit:
// one activity (appendDuringParse) whose rows go into the map while the file is parsed; before
// patch APPEND_DURING_PARSE, a parse and then a write (the write enforces the deadline itself,
// see processingLimit.ts). The request's blobs
// are removed however it ends. With the file type 'guess' (the web editor's Import) the parse
// tells the format from the content and answers it; the table rules follow the format found.
import { CancellationScope, patched } from '@temporalio/workflow';
import { GUESSED_FORMAT_FILE_TYPES, keepsSubgroups, type AppendMapInput, type AppendMapResult, type ParseFileResult } from '../lib/jobContracts.js';
import { toWorkflowFailure } from './activityFailures.js';
import { parsing, writing } from './activityOptions.js';
import { deadlineOf, withProcessingLimit } from './processingLimit.js';

/**
 * The patch id of the parse and the write in one activity (issue 27): the rows go into the map
 * while the file is parsed. Histories from before parsed and wrote in two activities and replay so.
 */
export const APPEND_DURING_PARSE = 'append-during-parse';

export async function appendMap(input: AppendMapInput): Promise<AppendMapResult> {
  const limitMs = input.processingTimeoutMs;
  const deadline = deadlineOf(limitMs);
  let parsed: ParseFileResult | null = null;
  if (patched(APPEND_DURING_PARSE)) {
    try {
      // No workflow timer: the activity ends its parse at the deadline itself, and never commits
      // after it, so its answer is the outcome (a timer's answer could race the commit).
      return await parsing.appendDuringParse({
        requestId: input.requestId,
        mapId: input.mapId,
        userId: input.userId,
        fileType: input.fileType,
        blobKey: input.blobKey,
        newGroup: input.newGroup,
        deadline,
      });
    } catch (error) {
      throw toWorkflowFailure(error, limitMs);
    } finally {
      await CancellationScope.nonCancellable(() => writing.deleteBlobs({ keys: [input.blobKey] }));
    }
  }
  try {
    parsed = await withProcessingLimit(deadline, limitMs, () =>
      parsing.parseFile({ requestId: input.requestId, userId: input.userId, mapId: input.mapId, blobKey: input.blobKey, fileType: input.fileType }),
    );
    const fileType = parsed.format ? GUESSED_FORMAT_FILE_TYPES[parsed.format] : input.fileType;
    const { map, added, revision, addedIds } = await writing.appendToMap({
      requestId: input.requestId,
      mapId: input.mapId,
      userId: input.userId,
      parsed,
      newGroup: input.newGroup,
      keepSubgroups: keepsSubgroups(fileType),
      deadline,
    });
    return { map, import: { features: added, skipped: parsed.skipped }, ...(parsed.format ? { format: parsed.format } : {}), ...(revision !== undefined ? { revision, addedIds } : {}) };
  } catch (error) {
    throw toWorkflowFailure(error, limitMs);
  } finally {
    const keys = [input.blobKey, parsed?.parsedKey].filter((key): key is string => !!key);
    await CancellationScope.nonCancellable(() => writing.deleteBlobs({ keys }));
  }
}
