// The web editor's save: POST /maps/{id}/save with a JSON body (lib/webSave.ts: the changes made
// on a revision). Answers 200 with the new revision and the ids of new items; 409 `save_conflict`
// listing the items someone else changed or deleted meanwhile (nothing is saved). A save asks
// the map's map-image workflow for a new static image, without waiting for it.
import { koaBody } from 'koa-body';
import { saveWebChanges } from '../../../db/webSave.js';
import { AppError } from '../../../lib/errors.js';
import { checkMapBytes } from '../../../lib/geojson/sizeLimits.js';
import { parseWebSave, planWebSave, type SavePlan, type WebSaveAnswer, type WebSaveConflictAnswer } from '../../../lib/webSave.js';
import { emitMapEvent, featuresChanged } from '../../webhookEvents.js';
import { mapForEditor, refreshImageAfterEdit } from '../editorAccess.js';
import { defineEditorEndpoint } from '../editorEndpoint.js';

export const endpoint = defineEditorEndpoint({
  method: 'post',
  path: '/maps/:id/save',
  summary: "Saves the editor's changes since the revision it loaded, merged with others' saves unless they touched the same items",
  sends: 'json',
  answers: 'lib/webSave.ts WebSaveAnswer; 409 WebSaveConflictAnswer',
  body: (deps) => koaBody({ json: true, urlencoded: false, multipart: false, jsonLimit: deps.config.maxUploadBytes ?? 64 * 1024 * 1024, jsonStrict: true }),
  async handle(ctx, deps) {
    const { mapId: id, userId } = await mapForEditor(deps.db, ctx, 'save this map');
    const request = parseWebSave((ctx.request as { body?: unknown }).body);
    let plan: SavePlan | undefined;
    const outcome = await saveWebChanges(deps.db, {
      mapId: id,
      userId,
      baseRevision: request.revision,
      deletedGroups: request.deletedGroups,
      plan: (current) => (plan = planWebSave(request, current)),
      check: (after) => checkMapBytes(after.contentBytes),
    });
    if (!outcome) throw new AppError('map_not_found', 'The map was deleted.');
    if (!outcome.saved) {
      ctx.status = 409;
      ctx.body = {
        error: `Someone else changed ${outcome.conflicts.length + outcome.groupConflicts.length === 1 ? 'something' : 'things'} you changed since you opened the map; nothing was saved. Choose which version to keep for each and save again.`,
        error_code: 'save_conflict',
        revision: outcome.revision,
        conflicts: outcome.conflicts.map((c) => ({ id: c.id, mine: c.mine, theirs: c.theirs === null ? null : JSON.parse(c.theirs) })),
        group_conflicts: outcome.groupConflicts,
      } satisfies WebSaveConflictAnswer;
      return;
    }
    // After the commit: map.features_changed to the owner's webhooks (in the background).
    void emitMapEvent(deps, featuresChanged(id, outcome.revision, { added: Object.values(outcome.ids), changed: plan?.changedIds ?? [], deleted: plan?.delete ?? [] }));
    const image = await refreshImageAfterEdit(deps, id);
    ctx.body = { saved: true, revision: outcome.revision, ids: outcome.ids, merged: outcome.merged, counts: outcome.counts, image } satisfies WebSaveAnswer;
  },
});
