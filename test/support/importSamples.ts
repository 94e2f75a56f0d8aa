// One small file of each import format, in the shapes real tools write (the fixtures of
// test/fixtures, a KMZ zipped here from its folder, GIS files made here by ogr2ogr): for the tests of the format guess and the
// web editor's Import, which must tell each one from its content alone.
import { readFileSync } from 'node:fs';
import type { GuessedFormat } from '../../lib/jobContracts.js';
import { ogrFile, POINTS, zippedShapefile } from './gisFiles.js';
import { makeZip } from './zipWriter.js';

export const fixture = (name: string): Buffer => readFileSync(new URL(`../fixtures/${name}`, import.meta.url));

/** Google Earth's KMZ: doc.kml in a folder "Beach", its icon and photo beside it (6 items). */
export const holidayKmz = (): Uint8Array =>
  makeZip([
    { name: 'doc.kml', data: fixture('kmz/doc.kml') },
    { name: 'files/', data: '', store: true },
    { name: 'files/icon.png', data: fixture('kmz/files/icon.png'), store: true },
    { name: 'files/photo.jpg', data: fixture('kmz/files/photo.jpg') },
    { name: 'files/readme.txt', data: fixture('kmz/files/readme.txt') },
  ]);

/** A CSV table of three points with one bad row (skipped, with its reason). */
export const PLACES_CSV = ['lat,lon,title,group', '48.8566,2.3522,Paris,France', '45.764,4.8357,Lyon,France', 'abc,10,Nowhere,', '51.5074,-0.1278,London,'].join('\r\n');

export interface ImportSample {
  name: string;
  format: GuessedFormat;
  bytes: Uint8Array;
}

/** One file of each format, named as people's files are (the name plays no part in the guess). */
export function importSamples(): ImportSample[] {
  return [
    { name: 'alpine-trip.kml', format: 'kml', bytes: fixture('kml/google-earth.kml') },
    { name: 'holiday.kmz', format: 'kmz', bytes: holidayKmz() },
    { name: 'garmin.gpx', format: 'gpx', bytes: fixture('gpx/garmin.gpx') },
    {
      name: 'museums.geojson',
      format: 'geojson',
      bytes: new TextEncoder().encode(`\uFEFF  ${JSON.stringify({ type: 'FeatureCollection', features: [{ type: 'Feature', geometry: { type: 'Point', coordinates: [2.3376, 48.8606] }, properties: { title: 'Louvre' } }] })}`),
    },
    { name: 'places.csv', format: 'csv', bytes: new TextEncoder().encode(PLACES_CSV) },
    { name: 'places-utf16.csv', format: 'csv', bytes: fixture('csv/utf16le-bom.csv') },
    { name: 'places.tsv', format: 'csv', bytes: fixture('csv/tab-delimited.tsv') },
    { name: 'places.xlsx', format: 'xlsx', bytes: fixture('xlsx/places.xlsx') },
    { name: 'places.xls', format: 'xls', bytes: fixture('xls/places.xls') },
    { name: 'places.ods', format: 'ods', bytes: fixture('ods/places.ods') },
    // GIS files made by ogr2ogr (gdal-bin), in a projected system.
    { name: 'places.zip', format: 'shapefile', bytes: zippedShapefile({ places: POINTS }, 3067) },
    { name: 'places.fgb', format: 'flatgeobuf', bytes: ogrFile('FlatGeobuf', 'fgb', { places: POINTS }, 3067) },
    { name: 'places.gpkg', format: 'geopackage', bytes: ogrFile('GPKG', 'gpkg', { places: POINTS }, 3067) },
  ];
}
