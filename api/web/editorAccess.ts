// What the editor's JSON routes share (save, history, restore): failures answered as JSON with
// their HTTP status, the map they act on (for a logged-in owner or editor of it only), and the
// new static image a change of the map's content asks for.
import type { Context, Next } from 'koa';
import type { Db } from '../../db/connection.js';
import { findMapWithRole } from '../../db/maps.js';
import { accessTo, canEdit, canView } from '../../lib/access.js';
import type { Config } from '../../lib/config.js';
import { AppError } from '../../lib/errors.js';
import { RateLimited } from '../../lib/rateLimited.js';
import type { JobGateway } from '../jobs.js';
import { asAppError } from '../middleware/errors.js';
import { STATUS, viewerOf } from './forms.js';

export interface EditorDeps {
  db: Db;
  config: Pick<Config, 'publicUrl' | 'maxUploadBytes' | 'renderTaskQueue' | 'imageRefreshSpacingMs' | 'taskQueue' | 'webhookAllowPrivate' | 'webhookRetryFirstMs' | 'webhookRetryForMs'>;
  jobs: Pick<JobGateway, 'mapSaved' | 'client'>;
  log?: (message: string, error: unknown) => void;
}

/** Failures as JSON with their HTTP status (the body's parsing and the database's refusals too). */
export async function jsonErrors(ctx: Context, next: Next): Promise<void> {
  try {
    await next();
  } catch (caught) {
    const error = asAppError(caught);
    // A rate limit's refusal is answered by the limiter (api/rateLimits.ts): 429, Retry-After, retry_after.
    if (!error || caught instanceof RateLimited) throw caught;
    ctx.status = STATUS[error.code] ?? 400;
    ctx.body = { error: error.message, error_code: error.code };
  }
}

/** The map of the route's `:id` and the signed-in person who may edit it; AppErrors otherwise. */
export async function mapForEditor(db: Db, ctx: Context, doing: string): Promise<{ mapId: number; userId: number }> {
  const viewer = viewerOf(ctx);
  if (!viewer) throw new AppError('permission_denied', `Log in again to ${doing}: your session has ended.`);
  const id = Number(ctx.params.id);
  const found = Number.isSafeInteger(id) && id > 0 ? await findMapWithRole(db, id, viewer.id) : undefined;
  const access = found ? accessTo(found.map, viewer.id, found.role) : 'none';
  if (!found || !canView(access)) throw new AppError('map_not_found', 'There is no such map, or you may not see it.');
  if (!canEdit(access)) throw new AppError('permission_denied', 'You may see this map but not edit it: its owner has not made you an editor, or collaboration is off.');
  return { mapId: id, userId: viewer.id };
}

/**
 * Asks the map's map-image workflow for a new static image (coalesced with others in its
 * cool-down), without waiting for it: the edit is saved all the same when that fails, and the
 * next save or map/refresh_image renders it.
 */
export async function refreshImageAfterEdit(deps: EditorDeps, mapId: number): Promise<'refreshing' | 'not_refreshed'> {
  try {
    await deps.jobs.mapSaved({ mapId, renderTaskQueue: deps.config.renderTaskQueue, spacingMs: deps.config.imageRefreshSpacingMs });
    return 'refreshing';
  } catch (error) {
    deps.log?.(`map ${mapId}: the static image refresh after an edit could not be asked for`, error);
    return 'not_refreshed';
  }
}
