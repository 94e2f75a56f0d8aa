// Map versions on a 100,000-point map (issue 13): what keeping a version as changes costs against
// the snapshot per save DESIGN.md first planned. Measured on the embedded service's PostgreSQL:
// the repository's save of one moved point (version kept: the touched row), a snapshot of the
// whole document written as one text value (what a snapshot per save would add to each save), a
// preview of the version ten saves back and its restore, and a whole-content map/update (which
// keeps every old row).
import { performance } from 'node:perf_hooks';
import { openDb } from '../db/connection.js';
import { saveFeatures } from '../db/mapFeatures.js';
import { listVersions, restoreVersion, versionContent } from '../db/mapVersions.js';
import { rowOf } from '../lib/formats/featureRows.js';
import type { MapFeature } from '../lib/geojson/model.js';
import { startBenchService } from './service.js';
import { summarize } from './stats.js';

const POINTS = 100_000;

const pointsDocument = (count: number) =>
  JSON.stringify({
    type: 'FeatureCollection',
    features: Array.from({ length: count }, (_, i) => ({
      type: 'Feature',
      id: i + 1,
      geometry: { type: 'Point', coordinates: [-10 + (i % 400) * 0.05, 35 + Math.floor(i / 400) * 0.08] },
      properties: { title: `Point ${i + 1}`, description: 'A point of the benchmark map, with a sentence of text.', color: '#2f6fd6' },
    })),
  });

async function timed<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const start = performance.now();
  const result = await fn();
  return [performance.now() - start, result];
}

export async function benchVersions() {
  const service = await startBenchService('pg', { MAX_UPLOAD_MB: '64' });
  const db = openDb({ databaseUrl: service.databaseUrl, pgliteDir: '' });
  try {
    const map = await service.send('map/upload', { file_type: 'geojson', visibility: 'private', title: 'Versions' }, pointsDocument(POINTS));
    const mapId = map.id as number;
    const owner = Number((await db('maps').where({ id: mapId }).first('owner_id')).owner_id);
    const revision = async () => Number((await db('maps').where({ id: mapId }).first('revision')).revision);

    // One moved point per save, twenty saves.
    const realSaves: number[] = [];
    for (let i = 0; i < 20; i += 1) {
      const feature = { type: 'Feature', id: 1 + i * 1000, geometry: { type: 'Point', coordinates: [2, 46 + i * 0.01] }, properties: { title: `Moved ${i}` } } as unknown as MapFeature;
      const at = await revision();
      const [ms, outcome] = await timed(() => saveFeatures(db, { mapId, revision: at, userId: owner, upsert: [rowOf(feature, JSON.stringify(feature))], delete: [] }));
      if (!outcome?.saved) throw new Error('a bench save was refused');
      realSaves.push(ms);
    }

    // What a snapshot per save would write: the whole document as one value.
    await db.raw('create temporary table if not exists bench_snapshots (document text)');
    const snapshots: number[] = [];
    for (let i = 0; i < 3; i += 1) {
      const [ms] = await timed(() => db.raw(`insert into bench_snapshots select string_agg(feature, ',' order by ordinal) from map_features where map_id = ?`, [mapId]));
      snapshots.push(ms);
    }
    const snapshotBytes = Number((await db.raw(`select sum(octet_length(feature)) as bytes from map_features where map_id = ?`, [mapId])).rows[0].bytes);
    const keptBytes = Number((await db.raw(`select coalesce(sum(octet_length(c.feature)), 0) as bytes from map_version_changes c join map_versions v on v.id = c.version_id where v.map_id = ?`, [mapId])).rows[0].bytes);

    // The version ten saves back: previewed, then restored.
    const versions = await listVersions(db, mapId);
    const tenBack = versions[10]!;
    const previews: number[] = [];
    for (let i = 0; i < 3; i += 1) previews.push((await timed(() => versionContent(db, mapId, tenBack.id)))[0]);
    const [restoreMs, restored] = await timed(() => restoreVersion(db, { mapId, versionId: tenBack.id, userId: owner }));
    if (!restored?.restored) throw new Error('the bench restore did nothing');

    // A whole new content through the API (the old 100,000 rows are kept for the version).
    const [replaceMs] = await timed(async () => {
      const response = await fetch(`${service.base}/api/1/map/update`, {
        method: 'POST',
        headers: { authorization: `Token ${service.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ map_id: mapId, geojson: JSON.parse(pointsDocument(POINTS)) }),
      });
      if (!response.ok) throw new Error(`map/update answered ${response.status}: ${await response.text()}`);
    });

    const save = summarize(realSaves);
    const snapshot = summarize(snapshots);
    return {
      points: POINTS,
      documentMB: +(snapshotBytes / 1e6).toFixed(1),
      saveOneMovedPointMs: { median: +save.median.toFixed(1), p90: +save.p90.toFixed(1) },
      snapshotPerSaveWouldAddMs: +snapshot.median.toFixed(0),
      ratioSnapshotToSave: +(snapshot.median / save.median).toFixed(1),
      keptByTwentySavesKB: +(keptBytes / 1e3).toFixed(1),
      snapshotsOfTwentySavesMB: +((snapshotBytes * 20) / 1e6).toFixed(0),
      previewTenSavesBackMs: +summarize(previews).median.toFixed(0),
      restoreTenSavesBackMs: +restoreMs.toFixed(0),
      replaceThroughApiMs: +replaceMs.toFixed(0),
    };
  } finally {
    await db.destroy();
    await service.stop();
  }
}
