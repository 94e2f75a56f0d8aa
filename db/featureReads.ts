// The per-feature API's reads (feature/get, feature/list): a map's features by id, and a page of
// them in the map's order, filtered by bounding box and group, each read with the map's revision
// in one snapshot. A page is the next `limit` rows after an ordinal on map_features_order (an
// index range scan): it costs its rows, never what the map holds before it.
import type { Knex } from 'knex';
import type { BBox } from '../lib/formats/featureRows.js';
import type { Db } from './connection.js';
import { translating } from './errors.js';

/**
 * The map's feature rows after `after` in the map's order, within the box (by the bounding-box
 * columns; a box across the antimeridian has west > east) and the groups when given. Callers set
 * `enable_sort = off` in their transaction: the order is the index's, never a sort.
 */
export function featuresAfter(trx: Knex.Transaction, mapId: number, after: number, box?: BBox, groups?: Iterable<number | string>) {
  const q = trx('map_features').where('map_id', mapId).andWhere('ordinal', '>', after);
  if (box) {
    const [west, south, east, north] = box;
    q.andWhere('min_lat', '<=', north).andWhere('max_lat', '>=', south);
    if (west <= east) q.andWhere('min_lon', '<=', east).andWhere('max_lon', '>=', west);
    else q.andWhere((w) => w.where('min_lon', '<=', east).orWhere('max_lon', '>=', west));
  }
  if (groups) q.whereIn('group_id', [...groups]);
  return q.orderBy('ordinal');
}

export interface FeaturesRead {
  /** The map's revision the features were read at. */
  revision: number;
  features: { id: number; text: string }[];
}

const SNAPSHOT = { isolationLevel: 'repeatable read', readOnly: true } as const;

/** The features with these ids that the map has (in the order asked); undefined when there is no such map. */
export async function featuresByIds(db: Db, mapId: number, ids: readonly number[]): Promise<FeaturesRead | undefined> {
  return translating(() =>
    db.transaction(async (trx) => {
      const map = await trx('maps').select('revision').where({ id: mapId }).first();
      if (!map) return undefined;
      const rows = ids.length === 0 ? [] : await trx('map_features').select('feature_id', 'feature').where('map_id', mapId).whereIn('feature_id', [...ids]);
      const byId = new Map(rows.map((row) => [Number(row.feature_id), row.feature as string]));
      const features = [...new Set(ids)].filter((id) => byId.has(id)).map((id) => ({ id, text: byId.get(id)! }));
      return { revision: Number(map.revision), features };
    }, SNAPSHOT),
  );
}

export interface FeaturePageQuery {
  /** Rows after this ordinal (0 for the first page). */
  afterOrdinal: number;
  limit: number;
  /** [west, south, east, north]: features whose bounding boxes meet it; west above east crosses the antimeridian. */
  box?: BBox;
  /** From the map's head (JSON text, read in the same snapshot): the stored group ids (their JSON text) whose features the page holds; may throw. */
  groups?: (head: string) => readonly string[];
}

export interface FeaturePage extends FeaturesRead {
  /** The last row's ordinal when more rows follow, else null. */
  nextOrdinal: number | null;
  /** The map's head (groups and other top-level keys) as JSON text. */
  head: string;
}

/**
 * A page of the map's features in its order; undefined when there is no such map. The page ends
 * at `limit` rows or once `maxBytes` of feature text are in it (its first row always is): the
 * rows' sizes are read first, then the texts of those in the page, so a page of large features
 * holds no more than about `maxBytes` in this process.
 */
export async function featurePage(db: Db, mapId: number, query: FeaturePageQuery, maxBytes = Number.POSITIVE_INFINITY): Promise<FeaturePage | undefined> {
  return translating(() =>
    db.transaction(async (trx) => {
      const map = await trx('maps').select('revision', 'head').where({ id: mapId }).first();
      if (!map) return undefined;
      const groups = query.groups?.(map.head as string);
      // The page in order is what map_features_order holds: never a sort of the map's rows (before
      // a large import is analyzed the planner may think it cheaper; db/mapDocument.ts says more).
      await trx.raw('set local enable_sort = off');
      const rows = (after: number) => featuresAfter(trx, mapId, after, query.box, groups);
      const sizes = await rows(query.afterOrdinal).select('ordinal', trx.raw('octet_length(feature) as bytes')).limit(query.limit + 1);
      let count = 0;
      let bytes = 0;
      while (count < Math.min(sizes.length, query.limit) && (count === 0 || bytes + Number(sizes[count].bytes) <= maxBytes)) {
        bytes += Number(sizes[count].bytes);
        count += 1;
      }
      const last = count > 0 ? Number(sizes[count - 1].ordinal) : null;
      const page = last === null ? [] : await rows(query.afterOrdinal).andWhere('ordinal', '<=', last).select('feature_id', 'feature');
      return {
        revision: Number(map.revision),
        head: map.head as string,
        features: page.map((row) => ({ id: Number(row.feature_id), text: row.feature as string })),
        nextOrdinal: count < sizes.length ? last : null,
      };
    }, SNAPSHOT),
  );
}

/** The map's revision, or undefined when there is no such map. */
export async function mapRevision(db: Db, mapId: number): Promise<number | undefined> {
  const row = await translating(() => db('maps').select('revision').where({ id: mapId }).first());
  return row ? Number(row.revision) : undefined;
}
