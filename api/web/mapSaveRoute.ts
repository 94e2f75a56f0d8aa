// The web editor's save: POST /maps/{id}/save with a JSON body (lib/webSave.ts: the changes made
// on a revision), for a logged-in owner or editor of the map, from the map's own page (same-origin
// request carrying the form token in X-CSRF-Token). Answers JSON: 200 with the new revision and
// the ids of new items; 409 `save_conflict` listing the items someone else changed or deleted
// meanwhile (nothing is saved); errors as {"error", "error_code"} with their HTTP status. A save
// asks the map's map-image workflow for a new static image, without waiting for it.
import type Router from '@koa/router';
import type { Context, Next } from 'koa';
import { koaBody } from 'koa-body';
import type { Db } from '../../db/connection.js';
import { findMapWithRole } from '../../db/maps.js';
import { saveWebChanges } from '../../db/webSave.js';
import { accessTo, canEdit, canView } from '../../lib/access.js';
import type { Config } from '../../lib/config.js';
import { AppError } from '../../lib/errors.js';
import { checkMapBytes } from '../../lib/geojson/sizeLimits.js';
import { parseWebSave, planWebSave } from '../../lib/webSave.js';
import type { JobGateway } from '../jobs.js';
import { asAppError } from '../middleware/errors.js';
import { STATUS, viewerOf } from './forms.js';
import { checkJsonRequest } from './security.js';

export interface MapSaveDeps {
  db: Db;
  config: Pick<Config, 'publicUrl' | 'maxUploadBytes' | 'renderTaskQueue' | 'imageRefreshSpacingMs'>;
  jobs: Pick<JobGateway, 'mapSaved'>;
  log?: (message: string, error: unknown) => void;
}

/** Failures as JSON with their HTTP status (the body's parsing and the database's refusals too). */
async function jsonErrors(ctx: Context, next: Next): Promise<void> {
  try {
    await next();
  } catch (caught) {
    const error = asAppError(caught);
    if (!error) throw caught;
    ctx.status = STATUS[error.code] ?? 400;
    ctx.body = { error: error.message, error_code: error.code };
  }
}

export function mountMapSave(router: Router, deps: MapSaveDeps): void {
  const body = koaBody({ json: true, urlencoded: false, multipart: false, jsonLimit: deps.config.maxUploadBytes ?? 64 * 1024 * 1024, jsonStrict: true });
  router.post('/maps/:id/save', checkJsonRequest(deps.config.publicUrl), jsonErrors, body, async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    const viewer = viewerOf(ctx);
    if (!viewer) throw new AppError('permission_denied', 'Log in again to save this map: your session has ended.');
    const id = Number(ctx.params.id);
    const found = Number.isSafeInteger(id) && id > 0 ? await findMapWithRole(deps.db, id, viewer.id) : undefined;
    const access = found ? accessTo(found.map, viewer.id, found.role) : 'none';
    if (!found || !canView(access)) throw new AppError('map_not_found', 'There is no such map, or you may not see it.');
    if (!canEdit(access)) throw new AppError('permission_denied', 'You may see this map but not edit it: its owner has not made you an editor, or collaboration is off.');
    const request = parseWebSave((ctx.request as { body?: unknown }).body);
    const outcome = await saveWebChanges(deps.db, {
      mapId: id,
      baseRevision: request.revision,
      deletedGroups: request.deletedGroups,
      plan: (current) => planWebSave(request, current),
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
      };
      return;
    }
    let image: 'refreshing' | 'not_refreshed' = 'refreshing';
    try {
      await deps.jobs.mapSaved({ mapId: id, renderTaskQueue: deps.config.renderTaskQueue, spacingMs: deps.config.imageRefreshSpacingMs });
    } catch (error) {
      image = 'not_refreshed'; // saved all the same; the next save or map/refresh_image renders it
      deps.log?.(`map ${id}: the static image refresh after a save could not be asked for`, error);
    }
    ctx.body = { saved: true, revision: outcome.revision, ids: outcome.ids, merged: outcome.merged, counts: outcome.counts, image };
  });
}
