// What every route handler gets: the dependencies of the API process and helpers on them.
import type { Context } from 'koa';
import type { Db } from '../db/connection.js';
import { findMapRecord, findMembership } from '../db/maps.js';
import type { MapRecord } from '../lib/maps.js';
import { accessTo, canEdit, canView, type Access } from '../lib/access.js';
import type { BlobStore } from '../lib/blobs/blobStore.js';
import type { Config } from '../lib/config.js';
import { AppError } from '../lib/errors.js';
import type { JobGateway } from './jobs.js';
import type { Turns } from './turns.js';
import type { Caller } from './middleware/auth.js';

export interface ApiDeps {
  config: Config;
  db: Db;
  blobs: BlobStore;
  jobs: JobGateway;
  /** Turns for reading large maps (made by createApp when not given). */
  largeReads: Turns;
}

export const callerOf = (ctx: Context): Caller => ctx.state.caller as Caller;

/** The map and the caller's access to it; a map the caller may not see is reported as missing. */
export async function mapFor(
  db: Db,
  mapId: number,
  userId: number,
  need: 'view' | 'edit',
): Promise<{ map: MapRecord; access: Access }> {
  const map = await findMapRecord(db, mapId);
  const access = map ? accessTo(map, userId, await findMembership(db, mapId, userId)) : 'none';
  if (!map || !canView(access)) throw new AppError('map_not_found', `There is no map with the id ${mapId}.`);
  if (need === 'edit' && !canEdit(access)) {
    throw new AppError('permission_denied', 'Only the owner and editors may change this map.');
  }
  return { map, access };
}
