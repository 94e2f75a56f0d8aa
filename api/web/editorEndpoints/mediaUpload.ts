// The web editor's uploads (images.ts, markers.ts): a multipart form with the file in `file`.
// No file type is asked: it is told by the file's first bytes (lib/media/uploadType.ts), then
// the file runs through the API's own uploadMedia workflow (api/mediaUpload.ts) with the same
// limits and checks, the uploader becoming the media's owner, so a save of the map may use it
// (db/mapMedia.ts claimMedia: the owner's and the editors' media). Answers image/upload's or
// marker/upload's fields.
import { randomUUID } from 'node:crypto';
import type { Context } from 'koa';
import type { BlobStore } from '../../../lib/blobs/blobStore.js';
import type { MediaKind } from '../../../lib/jobContracts.js';
import { mediaFileTypeOf, TYPE_BYTES } from '../../../lib/media/uploadType.js';
import type { ReceivedFile } from '../../fileBody.js';
import { runMediaJob } from '../../mediaUpload.js';
import { mapForEditor } from '../editorAccess.js';
import type { EditorEndpointDeps } from '../editorEndpoint.js';
import { receiveFormFile } from '../formFile.js';

/** The file's first bytes (what tells its type). */
async function headOf(blobs: BlobStore, file: ReceivedFile): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of blobs.readStream(file.key, { start: 0, end: Math.min(file.size, TYPE_BYTES) - 1 })) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const DOING: Record<MediaKind, string> = { image: 'add a photo to this map', marker: 'add a custom icon to this map' };

/** Stores the form's file as the map's new image or marker and answers image/upload's or marker/upload's fields. */
export function uploadMediaOf(kind: MediaKind) {
  return async (ctx: Context, deps: EditorEndpointDeps): Promise<void> => {
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
