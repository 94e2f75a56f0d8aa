// Imports of 15 MB files, end to end through the API (upload, or append for tables), beside
// GDAL's ogr2ogr converting the same file to GeoJSON, in the same run. Prints the time ratio
// (ours / ogr2ogr; the target is at most 0.8) and the service's peak memory above idle, on
// PostgreSQL and on the embedded PGlite (what a new user's `npm start` runs). Each timed upload
// is followed by the wait for its static image (untimed), so no run meets the previous run's
// render; then the same uploads sent back to back (each after the previous one's answer, renders
// left running) are timed too: what a client that sends files one after another sees.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as generate from './generate/files.js';
import * as gis from './generate/gis.js';
import { xlsx } from './generate/xlsx.js';
import { waitForImage } from './imageWait.js';
import { rssOf, startBenchService, withPeakRss, type BenchDatabase, type BenchService } from './service.js';
import { summarize, timeEach } from './stats.js';

const SIZE = Math.floor(14.5 * 1024 * 1024);
const RUNS = 3;
const MB = 1024 * 1024;

interface Case {
  name: string;
  file: string;
  /** How the service imports it. */
  op: 'upload' | 'append';
  fileType: string;
  /** ogr2ogr arguments after the output and input paths: every layer into one GeoJSON layer. */
  ogrArgs: string[];
  /** What ogr2ogr reads, when not `file` itself (a zipped shapefile through /vsizip/). */
  ogrInput?: string;
}

function ensureOgr2ogr(): void {
  try {
    execFileSync('ogr2ogr', ['--version'], { stdio: 'ignore' });
  } catch {
    console.log('Installing gdal-bin (ogr2ogr) for the comparison …');
    execFileSync('sh', ['-c', 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gdal-bin'], { stdio: 'inherit' });
  }
}

function writeInputs(dir: string, only: string | undefined): Case[] {
  const write = (name: string, text: string | Uint8Array) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, text);
    return file;
  };
  return [
    { name: 'KML', file: write('bench.kml', generate.kml(SIZE)), op: 'upload', fileType: 'kml', ogrArgs: ['-nln', 'all'] },
    { name: 'GPX', file: write('bench.gpx', generate.gpx(SIZE)), op: 'upload', fileType: 'gpx', ogrArgs: ['waypoints', 'tracks', '-nln', 'all'] },
    { name: 'GeoJSON', file: write('bench.geojson', generate.geojson(SIZE)), op: 'upload', fileType: 'geojson', ogrArgs: [] },
    // One large feature: read from its bytes into typed arrays (issue 8), not as objects.
    { name: 'GeoJSON MultiPolygon', file: write('bench-multipolygon.geojson', generate.multiPolygon(SIZE)), op: 'upload', fileType: 'geojson', ogrArgs: [] },
    { name: 'CSV', file: write('bench.csv', generate.csv(SIZE)), op: 'append', fileType: 'csv', ogrArgs: ['-oo', 'X_POSSIBLE_NAMES=lon', '-oo', 'Y_POSSIBLE_NAMES=lat'] },
    // ogr2ogr reads the sheet as a table; MakePoint gives it the same point geometry we build.
    {
      name: 'XLSX 50k rows',
      file: write('bench.xlsx', xlsx(generate.tableRows(50_000))),
      op: 'append',
      fileType: 'excel',
      ogrArgs: ['-dialect', 'SQLite', '-sql', 'SELECT *, MakePoint(lon, lat, 4326) AS geometry FROM Places'],
    },
    ...gisCases(dir, only),
  ];
}

/** A zipped shapefile of 15 MB in EPSG:3857, and a FlatGeobuf and a GeoPackage of the same lines; ogr2ogr converts each to GeoJSON in WGS 84. */
function gisCases(dir: string, only: string | undefined): Case[] {
  if (only && only !== 'all' && !['shapefile', 'flatgeobuf', 'geopackage', 'gis'].includes(only)) return [];
  const files = gis.gisFiles(dir, SIZE);
  const toWgs84 = ['-t_srs', 'EPSG:4326'];
  return [
    { name: 'Shapefile', file: files.shapefile, ogrInput: `/vsizip/${files.shapefile}`, op: 'upload', fileType: 'shapefile', ogrArgs: toWgs84 },
    { name: 'FlatGeobuf', file: files.flatgeobuf, op: 'upload', fileType: 'flatgeobuf', ogrArgs: toWgs84 },
    { name: 'GeoPackage', file: files.geopackage, op: 'upload', fileType: 'geopackage', ogrArgs: toWgs84 },
  ];
}

async function timeOurs(service: BenchService, c: Case, bytes: Buffer) {
  const upload = () => service.send('map/upload', { file_type: c.fileType, visibility: 'private' }, bytes);
  let features = 0;
  // Appends go to a new empty map each, made before the clock starts (it is not part of the import).
  const targets: number[] = [];
  for (let i = 0; c.op === 'append' && i < RUNS; i += 1) {
    targets.push((await service.send('map/upload', { file_type: 'empty', visibility: 'private' })).id as number);
  }
  const idle = rssOf(service.pid);
  let peak = idle;
  const renders: number[] = [];
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    const target = targets[i];
    const started = performance.now();
    const measured = await withPeakRss(service.pid, () =>
      c.op === 'upload' ? upload() : service.send('map/append', { map_id: target, file_type: c.fileType }, bytes),
    );
    samples.push(performance.now() - started);
    peak = Math.max(peak, measured.peak);
    features = (measured.result.import as { features: number }).features;
    // The new map's image, drawn after the answer: waited for outside the clock.
    if (c.op === 'upload') renders.push(await waitForImage(service, measured.result.url as string));
  }
  // Back to back: each upload sent as soon as the previous one answered, renders left running.
  const backToBack = c.op === 'upload' ? await timeEach(RUNS, async () => void (await upload())) : [];
  return {
    seconds: summarize(samples).median / 1000,
    backToBackSeconds: backToBack.length > 0 ? summarize(backToBack).median / 1000 : null,
    imageAfterAnswerSeconds: renders.length > 0 ? summarize(renders).median / 1000 : null,
    peakAboveIdle: peak - idle,
    features,
  };
}

function timeOgr(c: Case, dir: string): number {
  const out = path.join(dir, `${c.name}.geojson`);
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    fs.rmSync(out, { force: true });
    const started = performance.now();
    execFileSync('ogr2ogr', ['-f', 'GeoJSON', out, c.ogrInput ?? c.file, ...c.ogrArgs], { stdio: 'ignore' });
    samples.push(performance.now() - started);
  }
  return summarize(samples).median / 1000;
}

export async function benchImports(): Promise<Record<string, unknown>[]> {
  ensureOgr2ogr();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mps-bench-inputs-'));
  // `npm run bench -- imports CSV` runs the formats whose name starts with the given word (`all`
  // for every one); a further `pg` or `pglite` runs on that database only.
  const only = process.argv[3]?.toLowerCase();
  const databases: BenchDatabase[] = process.argv[4] === 'pg' || process.argv[4] === 'pglite' ? [process.argv[4]] : ['pg', 'pglite'];
  const cases = writeInputs(dir, only).filter((c) => !only || only === 'all' || (only === 'gis' ? ['shapefile', 'flatgeobuf', 'geopackage'].includes(c.name.toLowerCase()) : c.name.toLowerCase().startsWith(only)));
  const rows: Record<string, unknown>[] = [];
  try {
    for (const c of cases) {
      const bytes = fs.readFileSync(c.file);
      const ogr = timeOgr(c, dir);
      for (const database of databases) {
        // A fresh service per format, warmed up by one small upload, so "idle" is really idle.
        const service = await startBenchService(database);
        try {
          await service.send('map/upload', { file_type: 'geojson', visibility: 'private' }, '{"type":"Point","coordinates":[1,2]}');
          const ours = await timeOurs(service, c, bytes);
          rows.push({
            format: c.name,
            database,
            size_mb: +(bytes.length / MB).toFixed(1),
            features: ours.features,
            ogr2ogr_s: +ogr.toFixed(2),
            ours_s: +ours.seconds.toFixed(2),
            ratio: +(ours.seconds / ogr).toFixed(2),
            back_to_back_s: ours.backToBackSeconds === null ? '' : +ours.backToBackSeconds.toFixed(2),
            back_to_back_ratio: ours.backToBackSeconds === null ? '' : +(ours.backToBackSeconds / ogr).toFixed(2),
            image_after_answer_s: ours.imageAfterAnswerSeconds === null ? '' : +ours.imageAfterAnswerSeconds.toFixed(2),
            peak_mb_above_idle: +(ours.peakAboveIdle / MB).toFixed(0),
            peak_vs_file: +(ours.peakAboveIdle / bytes.length).toFixed(1),
          });
        } catch (error) {
          rows.push({ format: c.name, database, size_mb: +(bytes.length / MB).toFixed(1), ogr2ogr_s: +ogr.toFixed(2), error: (error as Error).message });
        } finally {
          await service.stop();
        }
      }
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}
