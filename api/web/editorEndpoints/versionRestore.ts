// Brings a kept version back as a new version; a new static image is asked for, as after a save.
import { restoreVersion } from '../../../db/mapVersions.js';
import { AppError } from '../../../lib/errors.js';
import { checkMapBytes } from '../../../lib/geojson/sizeLimits.js';
import type { RestoreAnswer } from '../../../lib/mapVersions.js';
import { emitMapEvent, featuresChanged } from '../../webhookEvents.js';
import { mapForEditor, refreshImageAfterEdit } from '../editorAccess.js';
import { defineEditorEndpoint } from '../editorEndpoint.js';
import { noVersion, versionId } from './versionArgs.js';

export const endpoint = defineEditorEndpoint({
  method: 'post',
  path: '/maps/:id/versions/:version/restore',
  summary: 'Brings a kept version back as a new version',
  sends: 'nothing',
  answers: 'lib/mapVersions.ts RestoreAnswer',
  async handle(ctx, deps) {
    const { mapId, userId } = await mapForEditor(deps.db, ctx, 'restore a version of this map');
    const outcome = await restoreVersion(deps.db, { mapId, versionId: versionId(ctx), userId, check: (after) => checkMapBytes(after.contentBytes) });
    if (!outcome) throw noVersion();
    if (!outcome.restored) throw new AppError('invalid_arguments', 'This version is the map as it is now: there is nothing to restore.');
    // After the commit: map.features_changed to the owner's webhooks, as the editor's save sends it.
    void emitMapEvent(deps, featuresChanged(mapId, outcome.revision, outcome.ids));
    const image = await refreshImageAfterEdit(deps, mapId);
    ctx.body = { restored: true, revision: outcome.revision, added: outcome.added, changed: outcome.changed, deleted: outcome.deleted, image } satisfies RestoreAnswer;
  },
});
