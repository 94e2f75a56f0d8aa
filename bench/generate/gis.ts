// GIS bench inputs made by ogr2ogr from one GeoJSON source of lines (10 positions each, with a
// title and a description), in EPSG:3857 (projected, so the import reprojects every position): a
// zipped shapefile, a FlatGeobuf and a GeoPackage, each of about `bytes`.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pseudoRandom } from './pseudoRandom.js';

function source(count: number): string {
  const random = pseudoRandom(7);
  const features: string[] = [];
  for (let i = 0; i < count; i += 1) {
    let lon = random() * 340 - 170;
    let lat = random() * 150 - 75;
    const line: string[] = [];
    for (let k = 0; k < 10; k += 1) {
      line.push(`[${lon.toFixed(6)},${lat.toFixed(6)}]`);
      lon += random() * 0.02 - 0.01;
      lat += random() * 0.02 - 0.01;
    }
    features.push(`{"type":"Feature","geometry":{"type":"LineString","coordinates":[${line.join(',')}]},"properties":{"title":"Line ${i}","description":"Number ${i}"}}`);
  }
  return `{"type":"FeatureCollection","features":[\n${features.join(',\n')}\n]}`;
}

function convert(dir: string, count: number, driver: string, file: string): string {
  const input = path.join(dir, 'gis-source.geojson');
  fs.writeFileSync(input, source(count));
  const out = path.join(dir, file);
  fs.rmSync(out, { force: true });
  execFileSync('ogr2ogr', ['-f', driver, '-s_srs', 'EPSG:4326', '-t_srs', 'EPSG:3857', '-nln', 'lines', out, input], { stdio: 'ignore' });
  return out;
}

/** A file of `driver` sized to about `bytes` (one calibration pass); its feature count. */
function sized(dir: string, bytes: number, driver: string, file: string): { file: string; features: number } {
  const probe = 20_000;
  const probeSize = fs.statSync(convert(dir, probe, driver, file)).size;
  const features = Math.floor((probe * bytes) / probeSize);
  return { file: convert(dir, features, driver, file), features };
}

/**
 * The three files, each sized to about `bytes` (the upload limit allows no more): the same kind
 * of lines, fewer of them in the larger formats (FlatGeobuf and GeoPackage are about twice the
 * zipped shapefile's size for the same content).
 */
export function gisFiles(dir: string, bytes: number): { shapefile: string; flatgeobuf: string; geopackage: string } {
  return {
    shapefile: sized(dir, bytes, 'ESRI Shapefile', 'bench.shp.zip').file,
    flatgeobuf: sized(dir, bytes, 'FlatGeobuf', 'bench.fgb').file,
    geopackage: sized(dir, bytes, 'GPKG', 'bench.gpkg').file,
  };
}
