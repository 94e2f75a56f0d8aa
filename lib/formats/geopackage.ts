// GeoPackage uploads (file_type "geopackage", .gpkg): an SQLite database read with `sql.js`
// (SQLite compiled to WebAssembly: no native code, nothing written to disk). Every feature table
// that gpkg_contents lists becomes a group of its own when there are several (title: its
// identifier, else its name); a single one adds no group. Geometry blobs are read by ./gis/wkb.ts,
// coordinate systems from gpkg_spatial_ref_sys (EPSG codes, else the WKT definition) converted to
// WGS 84 (./gis/crs.ts). The integer primary key (`fid`) is left out of the properties, as
// ogr2ogr leaves it out of GeoJSON. Only stored data is read: feature tables that are views and
// generated columns (queries and expressions of the file's choosing) are left out, a view with a
// note in the import report naming it. A file that is not SQLite, an SQLite database that is not a
// GeoPackage and a damaged database are refused with invalid_file.
import initSqlJs, { type Database, type SqlJsStatic } from 'sql.js';
import { AppError } from '../errors.js';
import { MAX_FEATURES, type MapGroup } from '../geojson/model.js';
import { crsFromEpsg, crsFromWkt, WGS84, type Crs } from './gis/crs.js';
import { GisFeatureWriter } from './gis/gisFeatures.js';
import { readGeoPackageGeometry, WkbProblem } from './gis/wkb.js';
import { asInput, type ParserInput } from './input.js';
import { SkipList } from './skipped.js';
import { FeatureList, type FormatParser, type ParsedFile } from './types.js';
import { binaryKind } from './xml/sniff.js';

const SQLITE_MAGIC = 'SQLite format 3\u0000';

/** The SQLite header every GeoPackage starts with. */
export function isSqlite(head: Uint8Array): boolean {
  if (head.length < 16) return false;
  for (let i = 0; i < 16; i++) if (head[i] !== SQLITE_MAGIC.charCodeAt(i)) return false;
  return true;
}

/** Rows read from all layers together at most (a view listed as a layer could make rows without end). */
const MAX_ROWS = 2 * MAX_FEATURES;

let sqlJs: Promise<SqlJsStatic> | undefined;

const invalid = (message: string): never => {
  throw new AppError('invalid_file', message);
};

const quoteName = (name: string): string => `"${name.replaceAll('"', '""')}"`;

interface Layer {
  table: string;
  title: string;
  geometryColumn: string;
  srsId: number;
}

function rows(db: Database, sql: string, params: (string | number)[] = []): Record<string, unknown>[] {
  const statement = db.prepare(sql, params);
  try {
    const found: Record<string, unknown>[] = [];
    while (statement.step()) found.push(statement.getAsObject());
    return found;
  } finally {
    statement.free();
  }
}

function layersOf(db: Database): Layer[] {
  const tables = new Set(rows(db, "SELECT name FROM sqlite_master WHERE type IN ('table', 'view')").map((row) => String(row.name)));
  if (!tables.has('gpkg_contents') || !tables.has('gpkg_geometry_columns') || !tables.has('gpkg_spatial_ref_sys')) {
    invalid('the file is an SQLite database but not a GeoPackage (it has no gpkg_contents, gpkg_geometry_columns or gpkg_spatial_ref_sys table)');
  }
  // Tables only: a view is a query SQLite would run, one of the file's choosing.
  return rows(
    db,
    `SELECT c.table_name AS table_name, c.identifier AS identifier, g.column_name AS column_name, g.srs_id AS srs_id
       FROM gpkg_contents c JOIN gpkg_geometry_columns g ON g.table_name = c.table_name
      WHERE c.data_type = 'features' AND c.table_name IN (SELECT name FROM sqlite_master WHERE type = 'table') ORDER BY c.rowid`,
  ).map((row) => ({
    table: String(row.table_name),
    title: typeof row.identifier === 'string' && row.identifier.trim() !== '' ? row.identifier.trim() : String(row.table_name),
    geometryColumn: String(row.column_name),
    srsId: Number(row.srs_id),
  }));
}

function layerCrs(db: Database, layer: Layer): Crs {
  const what = `the GeoPackage layer ${JSON.stringify(layer.title)}`;
  if (layer.srsId === 0 || layer.srsId === 4326) return WGS84; // 0: undefined geographic (longitude/latitude)
  const [srs] = rows(db, 'SELECT organization, organization_coordsys_id, definition, srs_name FROM gpkg_spatial_ref_sys WHERE srs_id = ?', [layer.srsId]);
  if (srs === undefined) throw new AppError('unknown_crs', `${what} names the coordinate system ${layer.srsId}, which its gpkg_spatial_ref_sys table does not define`);
  const organization = String(srs.organization ?? '').toUpperCase();
  const code = Number(srs.organization_coordsys_id);
  if (organization === 'EPSG' && code > 0) return crsFromEpsg(code, what);
  const definition = typeof srs.definition === 'string' ? srs.definition.trim() : '';
  if (definition !== '' && definition !== 'undefined') return crsFromWkt(definition, what);
  throw new AppError('unknown_crs', `${what} is in the coordinate system ${JSON.stringify(String(srs.srs_name ?? layer.srsId))}, which has no definition this service can convert`);
}

/** Reads one layer into the writer; returns the rows read. */
/** Feature "tables" that gpkg_contents lists and that are views: named in the report, not read. */
function viewLayersOf(db: Database): string[] {
  return rows(
    db,
    `SELECT c.table_name AS table_name, c.identifier AS identifier FROM gpkg_contents c
      WHERE c.data_type = 'features' AND c.table_name IN (SELECT name FROM sqlite_master WHERE type = 'view') ORDER BY c.rowid`,
  ).map((row) => (typeof row.identifier === 'string' && row.identifier.trim() !== '' ? row.identifier.trim() : String(row.table_name)));
}

function readLayer(db: Database, layer: Layer, writer: GisFeatureWriter, skips: SkipList, budget: number, group?: number): number {
  const crs = layerCrs(db, layer);
  // Stored columns only: a generated column is an expression SQLite would run for every row.
  const columns = rows(db, `PRAGMA table_xinfo(${quoteName(layer.table)})`).filter((row) => Number(row.hidden) === 0);
  const keys = new Set(columns.filter((row) => Number(row.pk) > 0).map((row) => String(row.name)));
  const names = columns.map((row) => quoteName(String(row.name)));
  if (names.length === 0) return 0;
  const statement = db.prepare(`SELECT ${names.join(', ')} FROM ${quoteName(layer.table)}`);
  let record = 0;
  try {
    while (statement.step()) {
      record++;
      if (record > budget) throw new AppError('too_many_features', `the GeoPackage holds more than ${MAX_ROWS} rows; a map holds at most ${MAX_FEATURES} items`);
      const row = statement.getAsObject();
      const attributes: Record<string, unknown> = {};
      let blob: unknown;
      for (const [name, value] of Object.entries(row)) {
        if (name === layer.geometryColumn) blob = value;
        else if (!keys.has(name)) attributes[name] = value;
      }
      const layerName = group === undefined ? undefined : layer.title;
      if (!(blob instanceof Uint8Array)) {
        writer.add(null, attributes, crs.toWgs84, record, group, layerName);
        continue;
      }
      let geometry;
      try {
        geometry = readGeoPackageGeometry(blob);
      } catch (error) {
        if (!(error instanceof WkbProblem)) throw error;
        skips.add(`${layerName === undefined ? '' : `layer ${JSON.stringify(layerName)} `}record ${record}: ${error.message}`);
        continue;
      }
      writer.add(geometry, attributes, crs.toWgs84, record, group, layerName);
    }
  } finally {
    statement.free();
  }
  return record;
}

/**
 * Parses a GeoPackage. Throws AppError: unsupported_type, invalid_file, unknown_crs, no_features,
 * too_many_features.
 */
export const parseGeoPackage: FormatParser = async (file: ParserInput, options): Promise<ParsedFile> => {
  const input = asInput(file);
  if (!isSqlite(input.head)) {
    throw new AppError('invalid_file', `the file is ${binaryKind(input.head) ?? 'not an SQLite database'}, so it is not a GeoPackage`);
  }
  sqlJs ??= initSqlJs();
  const SQL = await sqlJs;
  let db: Database;
  try {
    db = new SQL.Database(input.bytes());
  } catch (error) {
    return invalid(`the GeoPackage cannot be opened: ${(error as Error).message}`);
  }
  const list = options?.sink ? undefined : new FeatureList();
  const sink = options?.sink ?? list!;
  const skips = new SkipList();
  const writer = new GisFeatureWriter(sink, skips, 'the GeoPackage');
  const groups: MapGroup[] = [];
  let name: string | undefined;
  try {
    const layers = layersOf(db);
    const views = viewLayersOf(db);
    for (const view of views) skips.add(`layer ${JSON.stringify(view)}: a view (a query the file defines), which is not imported; only stored tables are`);
    if (layers.length === 1) name = (layers[0] as Layer).title;
    if (layers.length === 0) {
      const only = views.length > 0 ? `only views (${views.map((view) => JSON.stringify(view)).join(', ')}), which are not imported` : 'only tiles or attributes';
      throw new AppError('no_features', `the GeoPackage holds no feature tables (${only})`);
    }
    let budget = MAX_ROWS;
    for (const layer of layers) {
      let group: number | undefined;
      if (layers.length > 1) {
        group = groups.length + 1;
        groups.push({ id: group, title: layer.title });
      }
      budget -= readLayer(db, layer, writer, skips, budget, group);
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    // SQLite's own errors: "database disk image is malformed", "file is not a database", …
    return invalid(`the GeoPackage is damaged: ${(error as Error).message}`);
  } finally {
    db.close();
  }
  if (sink.count === 0) throw new AppError('no_features', `the GeoPackage holds no features with a usable geometry${skips.example()}`);
  return {
    document: { type: 'FeatureCollection', features: list?.features ?? [], groups },
    skipped: skips.result(),
    media: [],
    name,
  };
};
