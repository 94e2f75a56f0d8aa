import { z } from 'zod';
import { APPEND_FILE_TYPES, type AppendMapInput } from '../../../lib/jobContracts.js';
import { callerOf, mapFor, withLinkKey } from '../../context.js';
import { receiveFile } from '../../fileBody.js';
import { runAppendJob } from '../../appendJob.js';
import { jobIdFor } from '../../fileJobs.js';
import { defineOperation } from '../../operation.js';
import { GIS_FORMATS_TEXT } from '../../gisFormats.js';
import { mapFileResult, mapId, text } from '../../schemas.js';
import { mapFileView } from '../../views.js';
import { FILE_LIMITS } from './upload.js';

/** A new group's title (map/append's new_group, the web editor's Import): not blank, trimmed. */
export const newGroupTitle = text(500)
  .regex(/\S/, 'must not be empty')
  .transform((value) => value.trim());

/** map/append: streams the file to the blob store and runs the append workflow on it. */
export const operation = defineOperation(import.meta.url, {
  path: 'map/append',
  kind: 'file',
  summary: 'Add the content of a file to a map',
  description:
    'Appends the features of the file in the body to an existing map (`kml` also for KMZ, `excel` for XLS, XLSX and ODS). ' +
    `${GIS_FORMATS_TEXT} ` +
    'With new_group, the imported items are placed in a new group of that title (for tables and multi-layer GIS files, the group becomes the import root ' +
    'and the subgroups of the source are kept below it). Concurrent appends are never lost. ' +
    `The static image is not refreshed and no map version is saved. ${FILE_LIMITS}`,
  args: z.strictObject({
    map_id: mapId,
    file_type: z.enum(APPEND_FILE_TYPES),
    new_group: newGroupTitle.optional().describe('The title of a new group for the imported items'),
  }),
  result: mapFileResult,
  idempotencyKey: true,
  example: {
    args: { map_id: 5480394431770113, file_type: 'csv', new_group: 'Museums' },
    result: {
      id: 5480394431770113,
      url: 'https://maps.example.com/alice/paris~KQXRBZTWMHPLVCNFGDSYAE',
      owner: 'alice',
      short_name: 'paris',
      title: 'Paris',
      visibility: 'unlisted',
      import: { features: 3, skipped: [{ reason: 'row 4 skipped: latitude "abc" is not a number', line: 4 }] },
    },
  },
  links: {
    GetMap: { operation: 'map/get', description: 'Read the map with the appended items', arguments: { map_id: '$response.body#/id' } },
    ChangesOfMap: { operation: 'map/changes', description: 'What the append added, for a client keeping a copy', arguments: { map_id: '$response.body#/id' } },
  },
  async handle(ctx, deps, args) {
    const { userId } = callerOf(ctx);
    const { workflowId, keyed } = jobIdFor(ctx, 'append');
    // Refuse early, before the body is read; the append activity checks again under the lock.
    await mapFor(deps.db, args.map_id, userId, 'edit');
    const file = await receiveFile(ctx, deps.blobs, deps.config.maxUploadBytes);
    const input: AppendMapInput = {
      requestId: workflowId,
      mapId: args.map_id,
      userId,
      fileType: args.file_type,
      blobKey: file.key,
      newGroup: args.new_group,
      processingTimeoutMs: deps.config.processingTimeoutMs,
    };
    const result = await runAppendJob(ctx, deps, { operation: 'map/append', keyed, args, input, file });
    ctx.body = mapFileView(deps.config.publicUrl, await withLinkKey(deps.db, result.map), result.import);
  },
});
