// The editor's History: the map's kept versions, newest first (who, when, what kind of change,
// how much), a page at a time; `more` when older ones are kept. db/mapVersions.ts puts versions
// together from what each write changed.
import { listVersions } from '../../../db/mapVersions.js';
import type { VersionListAnswer } from '../../../lib/mapVersions.js';
import { mapForEditor } from '../editorAccess.js';
import { defineEditorEndpoint } from '../editorEndpoint.js';
import { versionsPage } from './versionArgs.js';

export const endpoint = defineEditorEndpoint({
  method: 'get',
  path: '/maps/:id/versions',
  summary: "The map's kept versions, newest first, a page at a time (?before={revision}&limit={1–200})",
  sends: 'nothing',
  answers: 'lib/mapVersions.ts VersionListAnswer',
  async handle(ctx, deps) {
    const { mapId } = await mapForEditor(deps.db, ctx, 'see the history of this map');
    const { before, limit } = versionsPage(ctx);
    // One more than asked for: whether older versions are kept beyond this page.
    const versions = await listVersions(deps.db, mapId, { before, limit: limit + 1 });
    ctx.body = {
      more: versions.length > limit,
      versions: versions.slice(0, limit).map((v) => ({
        id: v.id,
        revision: v.revision,
        kind: v.kind,
        saved_by: v.savedBy,
        created_at: v.createdAt.toISOString(),
        added: v.added,
        changed: v.changed,
        deleted: v.deleted,
        feature_count: v.featureCount,
        ...(v.restoredRevision !== null ? { restored_revision: v.restoredRevision } : {}),
      })),
    } satisfies VersionListAnswer;
  },
});
