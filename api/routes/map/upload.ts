import { z } from 'zod';
import { UPLOAD_FILE_TYPES, WORKFLOW_TYPES, type UploadMapInput, type UploadMapResult } from '../../../lib/jobContracts.js';
import { recordImport } from '../../../lib/observability/metrics.js';
import { callerOf, withLinkKey } from '../../context.js';
import { receiveFile } from '../../fileBody.js';
import { jobIdFor, runFileJob } from '../../fileJobs.js';
import { defineOperation } from '../../operation.js';
import { GIS_FORMATS_TEXT } from '../../gisFormats.js';
import { description, mapFileResult, settableVisibility, shortName, title } from '../../schemas.js';
import { mapFileView } from '../../views.js';

export const FILE_LIMITS =
  'Limits: the file may be at most 15 MB and its processing may take at most 2 minutes; ' +
  'an enterprise deployment has no upload limits. A map may hold at most 64 MB of GeoJSON.';

/** map/upload: streams the file to the blob store and runs the upload workflow on it. */
export const operation = defineOperation(import.meta.url, {
  path: 'map/upload',
  kind: 'file',
  summary: 'Create a map, empty or from a file',
  description:
    'Creates a new map from the file in the body (KML or KMZ as `kml`, GPX, or GeoJSON as its JSON text). ' +
    `${GIS_FORMATS_TEXT} ` +
    'With file_type `empty` an empty map is created and no body is sent. ' +
    'The requested short_name is a preference: the final URL is returned. ' +
    `The map's static image is generated automatically. ${FILE_LIMITS}`,
  args: z.strictObject({
    file_type: z.enum(UPLOAD_FILE_TYPES),
    visibility: settableVisibility,
    title: title.optional(),
    description: description.optional(),
    short_name: shortName.optional(),
  }),
  result: mapFileResult,
  bodyOptional: true,
  idempotencyKey: true,
  example: {
    args: { file_type: 'geojson', visibility: 'unlisted', title: 'Paris', short_name: 'paris' },
    result: {
      id: 5480394431770113,
      url: 'https://maps.example.com/alice/paris~KQXRBZTWMHPLVCNFGDSYAE',
      owner: 'alice',
      short_name: 'paris',
      title: 'Paris',
      visibility: 'unlisted',
      import: { features: 12, skipped: [] },
    },
  },
  links: {
    GetMap: { operation: 'map/get', description: 'Read the new map', arguments: { map_id: '$response.body#/id' } },
    UpdateMap: { operation: 'map/update', description: 'Change the new map', arguments: { map_id: '$response.body#/id' } },
    AppendToMap: { operation: 'map/append', description: 'Add a file to the new map (its id is the `map_id` argument)', arguments: { map_id: '$response.body#/id' } },
  },
  async handle(ctx, deps, args) {
    const { workflowId, keyed } = jobIdFor(ctx, 'upload');
    const file = args.file_type === 'empty' ? null : await receiveFile(ctx, deps.blobs, deps.config.maxUploadBytes);
    const input: UploadMapInput = {
      requestId: workflowId,
      ownerId: callerOf(ctx).userId,
      fileType: args.file_type,
      blobKey: file?.key ?? null,
      settings: {
        visibility: args.visibility,
        title: args.title,
        description: args.description,
        shortName: args.short_name,
      },
      processingTimeoutMs: deps.config.processingTimeoutMs,
      image: { renderTaskQueue: deps.config.renderTaskQueue, spacingMs: deps.config.imageRefreshSpacingMs },
    };
    const result = await runFileJob<UploadMapResult>(ctx, deps, {
      operation: 'map/upload',
      workflowType: WORKFLOW_TYPES.uploadMap,
      workflowId,
      keyed,
      args,
      input,
      file,
    });
    if (file) recordImport(args.file_type, file.size, result.import.features);
    ctx.body = mapFileView(deps.config.publicUrl, await withLinkKey(deps.db, result.map), file ? result.import : undefined);
  },
});
