import type { Knex } from 'knex';
import { documentBytes } from '../../lib/formats/documentFile.js';
import { rowLine, rowOf } from '../../lib/formats/featureRows.js';
import type { DocumentHead, MapFeature } from '../../lib/geojson/model.js';
import { usesPg } from '../connection.js';
import { copyFeatureRows, textRows } from '../copy.js';

// Moves every map's document into a head and feature rows (014_map_features), in batches of
// maps, one map per transaction, so a stopped migration resumes where it stopped (a moved map
// has its head). The features stream out of the document and into map_features (COPY both ways
// on PostgreSQL), each written again the way the service writes one (compact JSON: type, id,
// geometry, properties), with its bounding box, group and media; the head is written compactly
// too, and content_bytes becomes the exact size of the document map/get answers.
export const config = { transaction: false };

/** The text of a feature as the service writes it, from the feature as stored. */
function canonical(stored: Record<string, unknown>): MapFeature {
  return { type: 'Feature', id: stored.id as number, geometry: stored.geometry as MapFeature['geometry'], properties: (stored.properties ?? {}) as Record<string, unknown> };
}

async function moveMap(knex: Knex, mapId: number): Promise<void> {
  await knex.transaction(async (trx) => {
    const map = await trx('maps').select(trx.raw("(geojson - 'features')::text as head")).where({ id: mapId }).whereNull('head').forUpdate().first();
    if (!map) return; // moved meanwhile
    const head = JSON.parse(map.head as string) as DocumentHead;
    let count = 0;
    let maxId = 0;
    let bytes = 0;
    async function* lines(): AsyncGenerator<string> {
      // The document's features, in order (the map id is a number from this database).
      // On PostgreSQL they come over a connection of their own (this one is busy with the COPY in).
      const source = usesPg(trx) ? knex : trx;
      for await (const text of textRows(source, `select e.f::text from maps, jsonb_array_elements(maps.geojson->'features') with ordinality e(f, n) where maps.id = ${mapId} order by e.n`)) {
        const feature = canonical(JSON.parse(text.toString('utf8')) as Record<string, unknown>);
        const json = JSON.stringify(feature);
        count++;
        bytes += Buffer.byteLength(json);
        if (feature.id > maxId) maxId = feature.id;
        yield rowLine(rowOf(feature, json));
      }
    }
    await copyFeatureRows(trx, mapId, lines());
    await trx('maps')
      .where({ id: mapId })
      .update({
        head: JSON.stringify(head),
        next_feature_id: maxId + 1,
        feature_count: count,
        features_bytes: bytes,
        content_bytes: documentBytes(head, bytes, count),
        geojson: null,
      });
  });
}

export async function up(knex: Knex): Promise<void> {
  for (;;) {
    const batch = (await knex('maps').select('id').whereNull('head').orderBy('id').limit(100)).map((row) => Number(row.id));
    if (batch.length === 0) return;
    for (const mapId of batch) await moveMap(knex, mapId);
  }
}

export async function down(knex: Knex): Promise<void> {
  // Back to documents: the head with its features, in order.
  await knex.raw(`
    update maps set geojson = coalesce(head::jsonb, '{}'::jsonb) || jsonb_build_object('features', coalesce(
      (select jsonb_agg(f.feature::jsonb order by f.ordinal) from map_features f where f.map_id = maps.id), '[]'::jsonb))`);
  await knex('map_features').delete();
  await knex('maps').update({ head: null });
}
