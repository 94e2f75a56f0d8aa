// The web editor's uploads: POST /maps/{id}/images (a photo for an item, or the Photo tool's new
// point) and POST /maps/{id}/markers (a point's custom icon), each a multipart form with the file
// in `file`, for a logged-in owner or editor of the map, from the map's own page (same-origin,
// the form token in X-CSRF-Token, as the editor's save and Import). No file type is asked: it is
// told by the file's first bytes (lib/media/uploadType.ts), then the file runs through the API's
// own uploadMedia workflow (api/mediaUpload.ts) with the same limits and checks, the uploader
// becoming the media's owner, so a save of the map may use it (db/mapMedia.ts claimMedia: the
// owner's and the editors' media). Answers image/upload's or marker/upload's fields as JSON;
// errors as {"error", "error_code"} with their HTTP status (api/web/forms.ts STATUS).
import { randomUUID } from 'node:crypto';
import type Router from '@koa/router';
import type { Context } from 'koa';
import type { BlobStore } from '../../lib/blobs/blobStore.js';
import type { Config } from '../../lib/config.js';
import type { MediaKind } from '../../lib/jobContracts.js';
import { mediaFileTypeOf, TYPE_BYTES } from '../../lib/media/uploadType.js';
import type { ReceivedFile } from '../fileBody.js';
import type { JobGateway } from '../jobs.js';
import { runMediaJob } from '../mediaUpload.js';
import { jsonErrors, mapForEditor, type EditorDeps } from './editorAccess.js';
import { receiveFormFile } from './formFile.js';
import { checkJsonRequest } from './security.js';

export interface MapMediaDeps extends EditorDeps {
  blobs: BlobStore;
  config: Config;
  jobs: JobGateway;
}

/** The file's first bytes (what tells its type). */
async function headOf(blobs: BlobStore, file: ReceivedFile): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of blobs.readStream(file.key, { start: 0, end: Math.min(file.size, TYPE_BYTES) - 1 })) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const DOING: Record<MediaKind, string> = { image: 'add a photo to this map', marker: 'add a custom icon to this map' };

function upload(deps: MapMediaDeps, kind: MediaKind) {
  return async (ctx: Context) => {
    ctx.set('Cache-Control', 'no-store');
    // Refused before the file is read.
    const { userId } = await mapForEditor(deps.db, ctx, DOING[kind]);
    const form = await receiveFormFile(ctx, deps.blobs, { fileField: 'file', fields: [], maxBytes: deps.config.maxUploadBytes });
    let fileType;
    try {
      fileType = mediaFileTypeOf(await headOf(deps.blobs, form.file), kind);
    } catch (error) {
      await deps.blobs.delete(form.file.key);
      throw error;
    }
    const workflowId = `${kind}:${randomUUID()}`;
    const result = await runMediaJob(ctx, deps, {
      kind,
      fileType,
      ownerId: userId,
      file: form.file,
      workflowId,
      keyed: false,
      operation: `web/${kind}`,
      args: {},
    });
    ctx.body = result.kind === 'image' ? result.image : result.marker;
  };
}

export function mountMapMedia(router: Router, deps: MapMediaDeps): void {
  const checked = [checkJsonRequest(deps.config.publicUrl), jsonErrors] as const;
  router.post('/maps/:id/images', ...checked, upload(deps, 'image'));
  router.post('/maps/:id/markers', ...checked, upload(deps, 'marker'));
}
