// What every route handler gets: the dependencies of the API process and helpers on them.
import type { Context } from 'koa';
import type { Db } from '../db/connection.js';
import { findLinkKey, findMapWithRole } from '../db/maps.js';
import type { MapSummaryData } from '../lib/jobContracts.js';
import type { MapRecord } from '../lib/maps.js';
import { requireMapAccess, type Access } from '../lib/access.js';
import type { BlobStore } from '../lib/blobs/blobStore.js';
import type { Config } from '../lib/config.js';
import type { StreetArchive } from '../lib/streetArchive/index.js';
import type { TileSettings } from '../lib/render/xyzBackground.js';
import type { JobGateway } from './jobs.js';
import type { Turns } from './turns.js';
import type { Caller } from './middleware/auth.js';
import type { SummaryWithKey } from './views.js';

export interface ApiDeps {
  config: Config;
  db: Db;
  blobs: BlobStore;
  jobs: JobGateway;
  /** Turns for reading large maps (made by createApp when not given). */
  largeReads: Turns;
  /** The street map archive (BASEMAP_TILES), opened and checked by the entry point; undefined: Natural Earth only. */
  streets?: StreetArchive;
  /** Tests: how commercial basemap tiles are fetched for the browser (a local tile server). */
  tiles?: Partial<TileSettings>;
}

export const callerOf = (ctx: Context): Caller => ctx.state.caller as Caller;

/** A JSON operation's body size, decoded (middleware/jsonArgs.ts): what map/update with a geojson is charged by. */
export const bodyBytesOf = (ctx: Context): number => (ctx.state.bodyBytes as number | undefined) ?? 0;

/** The map and the caller's access to it (lib/access.ts's one check), with the link key the request gave. */
export async function mapFor(db: Db, mapId: number, userId: number, need: 'view' | 'edit', givenKey?: string): Promise<{ map: MapRecord; access: Access }> {
  return requireMapAccess(await findMapWithRole(db, mapId, userId), mapId, userId, need, givenKey);
}

/** A workflow's map summary (which never holds the link key: lib/mapSummary.ts summaryOf) with the key, read here for an unlisted map. */
export async function withLinkKey(db: Db, map: MapSummaryData): Promise<SummaryWithKey> {
  return { ...map, linkKey: map.visibility === 'unlisted' ? await findLinkKey(db, map.id) : null };
}
