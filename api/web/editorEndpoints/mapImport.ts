// The web editor's Import: a multipart form with the file (`file`) and, to put its items into a
// new group, that group's title (`group_title`). The file runs through map/append's own workflow
// — the same parse, limits and atomic append (api/appendJob.ts) — with the file type 'guess':
// the parse tells the format from the content (lib/formats/guessFormat.ts), so people pick a
// file, not a format. Like a save, an import asks for a new static image, without waiting for it.
import { randomUUID } from 'node:crypto';
import { AppError } from '../../../lib/errors.js';
import type { AppendMapInput } from '../../../lib/jobContracts.js';
import type { WebImportAnswer } from '../../../lib/webImport.js';
import { runAppendJob } from '../../appendJob.js';
import { withLinkKey } from '../../context.js';
import { newGroupTitle } from '../../routes/map/append.js';
import { mapFileView } from '../../views.js';
import { mapForEditor, refreshImageAfterEdit } from '../editorAccess.js';
import { defineEditorEndpoint } from '../editorEndpoint.js';
import { receiveFormFile } from '../formFile.js';

/** The form's optional group title, checked as map/append checks new_group. */
function groupTitle(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const parsed = newGroupTitle.safeParse(value);
  if (!parsed.success) throw new AppError('invalid_arguments', `The new group's title ${parsed.error.issues[0]?.message ?? 'is not valid'}.`);
  return parsed.data;
}

export const endpoint = defineEditorEndpoint({
  method: 'post',
  path: '/maps/:id/import',
  summary: "Imports a file's items into the map (its format told by its content), optionally into a new group",
  sends: 'multipart',
  answers: "the map's summary fields and lib/webImport.ts WebImportAnswer",
  async handle(ctx, deps) {
    const { config } = deps;
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
  },
});
