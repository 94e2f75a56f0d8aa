// The web editor's Import: POST /maps/{id}/import, a multipart form with the file (`file`) and,
// to put its items into a new group, that group's title (`group_title`); for a logged-in owner or
// editor of the map, from the map's own page (same-origin, the form token in X-CSRF-Token, as
// the editor's save). The file runs through map/append's own workflow — the same parse, limits
// and atomic append — with the file type 'guess': the parse tells the format from the content
// (lib/formats/guessFormat.ts), so people pick a file, not a format. Answers JSON: the map's
// summary fields, `import` (features imported, skipped rows with reasons) and `format` (the
// format found); errors as {"error", "error_code"} with their HTTP status. Like a save, an import
// asks the map-image workflow for a new static image, without waiting for it.
import { randomUUID } from 'node:crypto';
import type Router from '@koa/router';
import type { Context } from 'koa';
import type { BlobStore } from '../../lib/blobs/blobStore.js';
import type { Config } from '../../lib/config.js';
import { AppError } from '../../lib/errors.js';
import type { AppendMapInput } from '../../lib/jobContracts.js';
import type { WebImportAnswer } from '../../lib/webImport.js';
import { withLinkKey } from '../context.js';
import { runAppendJob } from '../appendJob.js';
import type { JobGateway } from '../jobs.js';
import { newGroupTitle } from '../routes/map/append.js';
import { mapFileView } from '../views.js';
import { jsonErrors, mapForEditor, refreshImageAfterEdit, type EditorDeps } from './editorAccess.js';
import { receiveFormFile } from './formFile.js';
import { checkJsonRequest } from './security.js';

export interface MapImportDeps extends EditorDeps {
  blobs: BlobStore;
  config: Config;
  jobs: JobGateway;
}

/** The form's optional group title, checked as map/append checks new_group. */
function groupTitle(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const parsed = newGroupTitle.safeParse(value);
  if (!parsed.success) throw new AppError('invalid_arguments', `The new group's title ${parsed.error.issues[0]?.message ?? 'is not valid'}.`);
  return parsed.data;
}

export function mountMapImport(router: Router, deps: MapImportDeps): void {
  const { config } = deps;
  router.post('/maps/:id/import', checkJsonRequest(config.publicUrl), jsonErrors, async (ctx: Context) => {
    ctx.set('Cache-Control', 'no-store');
    // Refused before the file is read; the append activity checks again under the map's lock.
    const { mapId: id, userId } = await mapForEditor(deps.db, ctx, 'import into this map');
    const form = await receiveFormFile(ctx, deps.blobs, { fileField: 'file', fields: ['group_title'], maxBytes: config.maxUploadBytes });
    let newGroup: string | undefined;
    try {
      newGroup = groupTitle(form.fields.group_title);
    } catch (error) {
      await deps.blobs.delete(form.file.key);
      throw error;
    }
    const workflowId = `append:${randomUUID()}`;
    const input: AppendMapInput = {
      requestId: workflowId,
      mapId: id,
      userId,
      fileType: 'guess',
      blobKey: form.file.key,
      newGroup,
      processingTimeoutMs: config.processingTimeoutMs,
    };
    const result = await runAppendJob(ctx, deps, { operation: 'web/import', keyed: false, args: {}, input, file: form.file });
    const image = await refreshImageAfterEdit(deps, id);
    ctx.body = { ...mapFileView(config.publicUrl, await withLinkKey(deps.db, result.map)), import: result.import, format: result.format ?? null, new_group: newGroup ?? null, image } satisfies WebImportAnswer;
  });
}
