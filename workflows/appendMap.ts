// map/append: parse the file, then append it to the map atomically, both within the processing
// limit (the write enforces the deadline itself, see processingLimit.ts). The request's blobs
// are removed however it ends. With the file type 'guess' (the web editor's Import) the parse
// tells the format from the content and answers it; the table rules follow the format found.
import { CancellationScope } from '@temporalio/workflow';
import { GUESSED_FORMAT_FILE_TYPES, type AppendMapInput, type AppendMapResult, type ParseFileResult } from '../lib/jobContracts.js';
import { toWorkflowFailure } from './activityFailures.js';
import { parsing, writing } from './activityOptions.js';
import { deadlineOf, withProcessingLimit } from './processingLimit.js';

/** Formats whose groups stay subgroups under new_group: tables, and GIS files (one group per layer). */
const TABLE_TYPES = new Set(['csv', 'excel', 'shapefile', 'geopackage']);

export async function appendMap(input: AppendMapInput): Promise<AppendMapResult> {
  const limitMs = input.processingTimeoutMs;
  const deadline = deadlineOf(limitMs);
  let parsed: ParseFileResult | null = null;
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
      keepSubgroups: TABLE_TYPES.has(fileType),
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
