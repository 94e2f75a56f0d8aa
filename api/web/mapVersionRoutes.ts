// The editor's History, for a logged-in owner or editor of the map: GET /maps/{id}/versions (the
// kept versions, newest first: who, when, what kind of change, how much; a page at a time:
// `?before={revision}&limit={1–200}`, 100 by default, and `more` when older ones are kept), GET
// /maps/{id}/versions/{version}/map.geojson (that version's document, for the preview) and POST
// /maps/{id}/versions/{version}/restore (brings it back as a new version, same-origin with the
// form token like a save; a new static image is asked for). db/mapVersions.ts puts versions
// together from what each write changed.
import type Router from '@koa/router';
import type { Context } from 'koa';
import { listVersions, restoreVersion, versionContent } from '../../db/mapVersions.js';
import { AppError } from '../../lib/errors.js';
import { documentOpening, DOCUMENT_CLOSING } from '../../lib/formats/documentFile.js';
import { checkMapBytes } from '../../lib/geojson/sizeLimits.js';
import type { RestoreAnswer, VersionListAnswer } from '../../lib/mapVersions.js';
import { chargeMapRead } from '../rateCharges.js';
import { emitMapEvent, featuresChanged } from '../webhookEvents.js';
import { jsonErrors, mapForEditor, refreshImageAfterEdit, type EditorDeps } from './editorAccess.js';
import { checkJsonRequest } from './security.js';

/** Versions a page of the History lists by default, and at most. */
const VERSIONS_PAGE = 100;
const VERSIONS_PAGE_MAX = 200;

/** A whole number from 1 to `max` written in digits, or invalid_arguments with `refusal`. */
function wholeNumber(text: unknown, max: number, refusal: string): number {
  const value = typeof text === 'string' && /^[0-9]{1,16}$/.test(text) ? Number(text) : NaN;
  if (!(Number.isSafeInteger(value) && value >= 1 && value <= max)) throw new AppError('invalid_arguments', refusal);
  return value;
}

const versionId = (ctx: Context): number => wholeNumber(ctx.params.version, Number.MAX_SAFE_INTEGER, 'A version is named by its number.');

/** `?before={revision}` and `?limit=` of the versions list. */
function versionsPage(ctx: Context): { before?: number; limit: number } {
  const { before, limit } = ctx.query;
  return {
    before: before === undefined ? undefined : wholeNumber(before, Number.MAX_SAFE_INTEGER, 'before must be a whole number of 1 or more.'),
    limit: limit === undefined ? VERSIONS_PAGE : wholeNumber(limit, VERSIONS_PAGE_MAX, `limit must be a whole number from 1 to ${VERSIONS_PAGE_MAX}.`),
  };
}

const noVersion = () => new AppError('invalid_arguments', 'This map has no such version: it may be older than the versions kept.');

export function mountMapVersions(router: Router, deps: EditorDeps): void {
  router.get('/maps/:id/versions', jsonErrors, async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
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
  });

  router.get('/maps/:id/versions/:version/map.geojson', jsonErrors, async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    const { mapId } = await mapForEditor(deps.db, ctx, 'see the history of this map');
    const content = await versionContent(deps.db, mapId, versionId(ctx));
    if (!content) throw noVersion();
    // A large version costs more from the rate limits, as map/get of a large map does.
    await chargeMapRead(ctx, Buffer.byteLength(content.features));
    ctx.type = 'application/geo+json';
    ctx.set('X-Map-Revision', String(content.revision));
    ctx.body = documentOpening(content.head) + content.features + DOCUMENT_CLOSING;
  });

  router.post('/maps/:id/versions/:version/restore', checkJsonRequest(deps.config.publicUrl), jsonErrors, async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    const { mapId, userId } = await mapForEditor(deps.db, ctx, 'restore a version of this map');
    const outcome = await restoreVersion(deps.db, { mapId, versionId: versionId(ctx), userId, check: (after) => checkMapBytes(after.contentBytes) });
    if (!outcome) throw noVersion();
    if (!outcome.restored) throw new AppError('invalid_arguments', 'This version is the map as it is now: there is nothing to restore.');
    // After the commit: map.features_changed to the owner's webhooks, as the editor's save sends it.
    void emitMapEvent(deps, featuresChanged(mapId, outcome.revision, outcome.ids));
    const image = await refreshImageAfterEdit(deps, mapId);
    ctx.body = { restored: true, revision: outcome.revision, added: outcome.added, changed: outcome.changed, deleted: outcome.deleted, image } satisfies RestoreAnswer;
  });
}
