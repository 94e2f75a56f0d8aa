// The per-feature API's reads (feature/get, feature/list): a map's features by id, and a page of
// them in the map's order, filtered by bounding box and group, each read with the map's revision
// in one snapshot. A page is the next `limit` rows after an ordinal on map_features_order (an
// index range scan): it costs its rows, never what the map holds before it.
import type { BBox } from '../lib/formats/featureRows.js';
import type { Db } from './connection.js';
import { translating } from './errors.js';

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

/** A page of the map's features in its order; undefined when there is no such map. */
export async function featurePage(db: Db, mapId: number, query: FeaturePageQuery): Promise<FeaturePage | undefined> {
  return translating(() =>
    db.transaction(async (trx) => {
      const map = await trx('maps').select('revision', 'head').where({ id: mapId }).first();
      if (!map) return undefined;
      const rows = trx('map_features')
        .select('ordinal', 'feature_id', 'feature')
        .where('map_id', mapId)
        .andWhere('ordinal', '>', query.afterOrdinal)
        .orderBy('ordinal')
        .limit(query.limit + 1);
      if (query.box) {
        const [west, south, east, north] = query.box;
        rows.andWhere('min_lat', '<=', north).andWhere('max_lat', '>=', south);
        if (west <= east) rows.andWhere('min_lon', '<=', east).andWhere('max_lon', '>=', west);
        else rows.andWhere((q) => q.where('min_lon', '<=', east).orWhere('max_lon', '>=', west));
      }
      if (query.groups) rows.whereIn('group_id', [...query.groups(map.head as string)]);
      const found = await rows;
      const more = found.length > query.limit;
      const page = more ? found.slice(0, query.limit) : found;
      return {
        revision: Number(map.revision),
        head: map.head as string,
        features: page.map((row) => ({ id: Number(row.feature_id), text: row.feature as string })),
        nextOrdinal: more ? Number(page[page.length - 1]!.ordinal) : null,
      };
    }, SNAPSHOT),
  );
}

/** The map's revision, or undefined when there is no such map. */
export async function mapRevision(db: Db, mapId: number): Promise<number | undefined> {
  const row = await translating(() => db('maps').select('revision').where({ id: mapId }).first());
  return row ? Number(row.revision) : undefined;
}
