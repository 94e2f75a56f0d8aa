// Views of a map's page and embed, and the commercial tiles served for it with the service's key,
// per map per day (UTC), and the map's heavy-traffic limit to the classic basemap
// (maps.classic_until; lib/browserBasemap.ts decides).
import type { DayTraffic } from '../lib/browserBasemap.js';
import type { Db } from './connection.js';

/** Days of counts kept per map (only today's decide anything; the rest are for looking back). */
const KEPT_DAYS = 90;

/** Counts one view of the map today; answers today's traffic and the map's current limit (none for a map just deleted). */
export async function countMapView(db: Db, mapId: number): Promise<{ today: DayTraffic; classicUntil: Date | null }> {
  const result = await db.raw(
    `with counted as (
       insert into map_daily_views (map_id, day, views)
       select id, (now() at time zone 'utc')::date, 1 from maps where id = ?
       on conflict (map_id, day) do update set views = map_daily_views.views + 1
       returning views, tiles
     )
     select counted.views, counted.tiles, maps.classic_until from counted, maps where maps.id = ?`,
    [mapId, mapId],
  );
  const row = result.rows[0] as { views: number; tiles: number; classic_until: Date | string | null } | undefined;
  // A map's first view of a day also drops its counts older than KEPT_DAYS: the table stays small.
  if (Number(row?.views) === 1) {
    await db('map_daily_views').where({ map_id: mapId }).andWhere('day', '<', db.raw(`(now() at time zone 'utc')::date - ?::int`, [KEPT_DAYS])).delete();
  }
  return { today: { views: Number(row?.views ?? 0), tiles: Number(row?.tiles ?? 0) }, classicUntil: row?.classic_until ? new Date(row.classic_until) : null };
}

/**
 * Adds tiles served to maps today (map id → tiles), in one statement; answers each map's
 * traffic today and its current limit (maps deleted meanwhile are left out).
 */
export async function countMapTiles(db: Db, tiles: ReadonlyMap<number, number>): Promise<{ mapId: number; today: DayTraffic; classicUntil: Date | null }[]> {
  if (tiles.size === 0) return [];
  const result = await db.raw(
    `with counted as (
       insert into map_daily_views (map_id, day, tiles)
       select maps.id, (now() at time zone 'utc')::date, given.tiles
       from unnest(?::bigint[], ?::int[]) as given (map_id, tiles) join maps on maps.id = given.map_id
       on conflict (map_id, day) do update set tiles = map_daily_views.tiles + excluded.tiles
       returning map_id, views, tiles
     )
     select counted.map_id, counted.views, counted.tiles, maps.classic_until from counted join maps on maps.id = counted.map_id`,
    [[...tiles.keys()], [...tiles.values()]],
  );
  return (result.rows as { map_id: number | string; views: number; tiles: number; classic_until: Date | string | null }[]).map((row) => ({
    mapId: Number(row.map_id),
    today: { views: Number(row.views), tiles: Number(row.tiles) },
    classicUntil: row.classic_until ? new Date(row.classic_until) : null,
  }));
}

/** The map's limit to classic, if one was ever set (it may have ended). */
export async function findClassicUntil(db: Db, mapId: number): Promise<Date | null> {
  const row = await db('maps').where({ id: mapId }).first('classic_until');
  return row?.classic_until ? new Date(row.classic_until) : null;
}

/** Starts the map's limit to classic until `until`, unless one is running already (two views at once start one). */
export async function startClassicLimit(db: Db, mapId: number, until: Date): Promise<void> {
  await db('maps')
    .where({ id: mapId })
    .andWhere((q) => q.whereNull('classic_until').orWhere('classic_until', '<=', db.fn.now()))
    .update({ classic_until: until });
}
