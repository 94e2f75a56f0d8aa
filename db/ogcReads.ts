// The OGC API – Features reads of a map (api/web/ogcRoutes.ts): the extents of its features per
// group, one feature with its group, and a page of its features in the map's order. A page is the
// rows after an ordinal on map_features_order, filtered by the bounding-box columns and groups in
// SQL, and by a test of the feature's text (datetime, property equality) here, in batches: a
// page costs the rows it reads, never what the map holds before it (db/featureReads.ts does the
// same for feature/list).
import type { BBox } from '../lib/formats/featureRows.js';
import type { Db } from './connection.js';
import { translating } from './errors.js';
import { featuresAfter } from './featureReads.js';

const SNAPSHOT = { isolationLevel: 'repeatable read', readOnly: true } as const;

export interface GroupExtent {
  /** The stored group id (JSON text: `5`, `"g1"`), null for features in no group. */
  groupId: string | null;
  count: number;
  box: BBox;
  /** The earliest and latest `time`, `begin` or `end` of its features (as stored), when any has one. */
  times: [string, string] | null;
}

/** The features' count, bounding box and times for each group of the map (one scan of its rows). */
export async function groupExtents(db: Db, mapId: number): Promise<GroupExtent[]> {
  // Only rows whose text names a time are parsed as JSON (the text is never cast otherwise).
  const time = (key: string) => `case when feature like '%"${key}":%' then feature::jsonb -> 'properties' ->> '${key}' end`;
  const rows = await translating(() =>
    db('map_features')
      .where('map_id', mapId)
      .groupBy('group_id')
      .select(
        'group_id',
        db.raw('count(*) as count'),
        db.raw('min(min_lon) as west, min(min_lat) as south, max(max_lon) as east, max(max_lat) as north'),
        db.raw(`least(min(${time('time')}), min(${time('begin')})) as first_time`),
        db.raw(`greatest(max(${time('time')}), max(${time('end')})) as last_time`),
      ),
  );
  return rows.map((row) => ({
    groupId: (row.group_id as string | null) ?? null,
    count: Number(row.count),
    box: [Number(row.west), Number(row.south), Number(row.east), Number(row.north)],
    times: row.first_time && row.last_time ? [String(row.first_time), String(row.last_time)] : null,
  }));
}

/** One feature of the map with its stored group id; undefined when the map has no such feature. */
export async function featureWithGroup(db: Db, mapId: number, featureId: number): Promise<{ text: string; groupId: string | null } | undefined> {
  const row = await translating(() => db('map_features').select('feature', 'group_id').where({ map_id: mapId, feature_id: featureId }).first());
  return row ? { text: row.feature as string, groupId: (row.group_id as string | null) ?? null } : undefined;
}

export interface ItemsQuery {
  /** Rows after this ordinal (0: from the start). */
  afterOrdinal: number;
  /** Matching features to pass over first (`offset` without a cursor). */
  skip: number;
  limit: number;
  box?: BBox;
  /** Stored group ids whose features are wanted. */
  groupIds?: readonly string[];
  /** A test of each feature's text, for what the columns cannot say. */
  keep?: (text: string) => boolean;
  /** The page ends once it holds this many bytes of feature text (its first feature always is in it). */
  maxBytes: number;
}

export interface ItemsPage {
  /** The features' texts, or pieces of them joined by commas. */
  features: string[];
  count: number;
  /** Where the next page starts (the last row read), or null when no rows follow. */
  nextOrdinal: number | null;
}

const BATCH = 1_000;

/** A page of the map's features in its order (see the top of this file). */
export async function itemsPage(db: Db, mapId: number, query: ItemsQuery): Promise<ItemsPage> {
  return translating(() =>
    db.transaction(async (trx) => {
      // The page in order is what map_features_order holds, never a sort (db/featureReads.ts).
      await trx.raw('set local enable_sort = off');
      const rows = (after: number) => featuresAfter(trx, mapId, after, query.box, query.groupIds);
      const features: string[] = [];
      let bytes = 0;
      let skip = query.skip;
      let after = query.afterOrdinal;
      const keep = query.keep;
      if (!keep && skip > 0) {
        // Columns alone decide: the rows to pass over are skipped by the index, not read.
        const last = await rows(after).select('ordinal').offset(skip - 1).limit(1).first();
        if (!last) return { features, count: features.length, nextOrdinal: null };
        after = Number(last.ordinal);
        skip = 0;
      }
      if (!keep) {
        // One query, one value: the page's texts joined by the database (10,000 row objects
        // would cost more, as db/mapDocument.ts found), from the rows with their number and
        // running size, and at most one row past the page (the limit's next, or the first past
        // maxBytes) to tell whether more follow; no text after that one is read.
        const sized = rows(after)
          .select('ordinal', 'feature', trx.raw('octet_length(feature) as bytes'), trx.raw('row_number() over (order by ordinal) as n'), trx.raw('sum(octet_length(feature)) over (order by ordinal) as upto'))
          .limit(query.limit + 1)
          .as('sized');
        const marked = trx
          .select('ordinal', 'feature', trx.raw('(n <= ? and (n = 1 or upto <= ?)) as in_page', [query.limit, query.maxBytes]))
          .from(sized)
          .whereRaw('upto - bytes <= ?', [query.maxBytes])
          .as('marked');
        const page = await trx
          .from(marked)
          .first(
            trx.raw("coalesce(string_agg(feature, ',' order by ordinal) filter (where in_page), '') as features"),
            trx.raw('count(*) filter (where in_page) as count'),
            trx.raw('max(ordinal) filter (where in_page) as last'),
            trx.raw('coalesce(bool_or(not in_page), false) as more'),
          );
        const count = Number(page?.count ?? 0);
        return { features: count === 0 ? [] : [page.features as string], count, nextOrdinal: page?.more ? Number(page.last) : null };
      }
      // With a test of the texts: the rows in batches, each batch's texts read up to about maxBytes.
      for (;;) {
        // Sizes first: a read of texts holds at most about maxBytes (and at least one row).
        const batch = await rows(after).select('ordinal', trx.raw('octet_length(feature) as bytes')).limit(BATCH);
        if (batch.length === 0) return { features, count: features.length, nextOrdinal: null };
        let take = 0;
        for (let held = 0; take < batch.length && (take === 0 || held + Number(batch[take]!.bytes) <= query.maxBytes); take += 1) held += Number(batch[take]!.bytes);
        const texts = await rows(after).andWhere('ordinal', '<=', Number(batch[take - 1]!.ordinal)).select('ordinal', 'feature');
        for (const row of texts) {
          const text = row.feature as string;
          const ordinal = Number(row.ordinal);
          if (!keep(text)) {
            after = ordinal;
            continue;
          }
          if (skip > 0) {
            skip -= 1;
            after = ordinal;
            continue;
          }
          // A full page ends before this feature: the next page starts at it.
          if (features.length > 0 && bytes + text.length > query.maxBytes) return { features, count: features.length, nextOrdinal: after };
          features.push(text);
          bytes += text.length;
          after = ordinal;
          if (features.length === query.limit) {
            const more = await rows(after).select('ordinal').limit(1).first();
            return { features, count: features.length, nextOrdinal: more ? after : null };
          }
        }
        if (take === batch.length && batch.length < BATCH) return { features, count: features.length, nextOrdinal: null };
      }
    }, SNAPSHOT),
  );
}

/** The map's head (groups and other top-level keys, JSON text) and its feature count; undefined when there is no such map. */
export async function mapHeadAndCount(db: Db, mapId: number): Promise<{ head: string; featureCount: number } | undefined> {
  const row = await translating(() => db('maps').select('head', 'feature_count').where({ id: mapId }).first());
  return row ? { head: (row.head as string | null) ?? '{"type":"FeatureCollection","groups":[]}', featureCount: Number(row.feature_count) } : undefined;
}
