// What a map's web page shows of its content without reading it whole: the document head (its
// groups), the first features in the map's order (for the item list), and how many features each
// group holds.
import type { MapPageContent } from '../lib/mapItems.js';
import type { Db } from './connection.js';

export async function readMapPageContent(db: Db, mapId: number, limit: number): Promise<MapPageContent> {
  const [row, features, counts] = await Promise.all([
    db('maps').where({ id: mapId }).first('head'),
    db('map_features').select('feature_id', 'feature').where({ map_id: mapId }).orderBy('ordinal').limit(limit),
    db('map_features').select('group_id').count({ count: '*' }).where({ map_id: mapId }).groupBy('group_id'),
  ]);
  const groupCounts = (counts as { group_id: string | null; count: string | number }[]).map((c) => ({ groupId: c.group_id ?? null, count: Number(c.count) }));
  return {
    head: typeof row?.head === 'string' ? row.head : JSON.stringify(row?.head ?? {}),
    features: features.map((f) => ({ id: Number(f.feature_id), text: f.feature as string })),
    groupCounts,
    total: groupCounts.reduce((sum, c) => sum + c.count, 0),
  };
}
