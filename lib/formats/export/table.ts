// A map's points as a table, the one both table downloads write (CSV here, XLSX in ./xlsx.ts), in
// the columns the table import reads (../table.ts), so a download imports back to the same points:
// lat, lon, title, description, group (the group's path, `Parent/Child`), url, color, visible,
// media_url, icon (`marker-symbol`), service_image_url (the image's address on this service), then
// every other text, number or yes/no property in a column of its own. Lines and areas have no
// place in a table of points: they are counted, for the page to say so. The cells are the ones
// the files hold: numbers stay numbers, and text a spreadsheet would run as a formula (starting
// with =, +, -, @, tab or carriage return, or full-width =, +, -, @) has a leading apostrophe,
// which the import takes off again (../tableCells.ts keeps the one rule for both directions).
import { joinGroupPath } from '../groupPath.js';
import Papa from 'papaparse';
import type { GroupId, MapFeature, MapGroup, Point } from '../../geojson/model.js';
import { neutraliseFormula } from '../tableCells.js';

const KNOWN = ['lat', 'lon', 'title', 'description', 'group', 'url', 'color', 'visible', 'media_url', 'icon', 'service_image_url'] as const;

/** Properties the known columns carry, or that a table cannot carry (custom markers, image details). */
const NOT_EXTRA = new Set(['title', 'description', 'group', 'url', 'color', 'visible', 'media_url', 'marker-symbol', 'image', 'marker_id', 'lat', 'lon', 'icon', 'service_image_url']);

export interface PointTable {
  /** Column names, neutralised as the cells are. */
  header: string[];
  /** One row per point: numbers, and text already neutralised ('' for an empty cell). */
  rows: (string | number)[][];
  /** Lines, areas and other shapes left out. */
  shapesLeftOut: number;
}

/** The path of each group (`Parent/Child`, a slash in a title doubled: lib/formats/groupPath.ts), by id. */
function groupPaths(groups: readonly MapGroup[]): Map<GroupId, string> {
  const byId = new Map(groups.map((group) => [group.id, group]));
  const paths = new Map<GroupId, string>();
  const pathOf = (group: MapGroup, depth = 0): string => {
    const known = paths.get(group.id);
    if (known !== undefined) return known;
    const parent = group.parent === undefined ? undefined : byId.get(group.parent);
    const own = joinGroupPath([group.title]);
    const path = parent && depth < 64 ? `${pathOf(parent, depth + 1)}/${own}` : own;
    paths.set(group.id, path);
    return path;
  };
  for (const group of groups) pathOf(group);
  return paths;
}

/** Whether a property's value fits a cell: text, a finite number, yes/no. */
const fitsACell = (value: unknown): value is string | number | boolean =>
  typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));

/** A property's value as the cell the files hold; undefined when a cell cannot hold it. */
const cellOf = (value: unknown): string | number | undefined =>
  !fitsACell(value) ? undefined : typeof value === 'string' ? neutraliseFormula(value) : typeof value === 'number' ? value : String(value);

export function pointTable(features: Iterable<MapFeature>, groups: readonly MapGroup[], publicUrl: string): PointTable {
  const paths = groupPaths(groups);
  const extras = new Map<string, number>();
  const points: (MapFeature & { geometry: Point })[] = [];
  let shapesLeftOut = 0;
  for (const feature of features) {
    if (feature.geometry?.type !== 'Point') {
      shapesLeftOut++;
      continue;
    }
    points.push(feature as MapFeature & { geometry: Point });
    for (const [key, value] of Object.entries(feature.properties)) {
      if (!NOT_EXTRA.has(key) && !extras.has(key) && fitsACell(value)) extras.set(key, KNOWN.length + extras.size);
    }
  }
  const header = [...KNOWN, ...[...extras.keys()].map(neutraliseFormula)];
  const rows = points.map((feature) => {
    const p = feature.properties;
    const [lon, lat] = feature.geometry.coordinates;
    const image = p.image as { id?: unknown } | undefined;
    const group = p.group === undefined || p.group === null ? undefined : paths.get(p.group as GroupId);
    const path = group === undefined ? '' : neutraliseFormula(group);
    const row: (string | number)[] = [
      lat,
      lon,
      cellOf(p.title) ?? '',
      cellOf(p.description) ?? '',
      path,
      cellOf(p.url) ?? '',
      cellOf(p.color) ?? '',
      p.visible === false || p.visible === 0 ? 'false' : '',
      cellOf(p.media_url) ?? '',
      cellOf(p['marker-symbol']) ?? '',
      image && typeof image.id === 'string' ? `${publicUrl}/images/${image.id}` : '',
    ];
    for (const [key, index] of extras) row[index] = cellOf(p[key]) ?? '';
    return row;
  });
  return { header, rows, shapesLeftOut };
}

/**
 * The table as CSV (RFC 4180, CRLF, UTF-8 with a byte order mark so spreadsheets read it as UTF-8).
 * Not papaparse's `escapeFormulae`: the cells are neutralised already, and its pattern misses a
 * formula followed by a line break (`=1+1\nx` went out as it was).
 */
export function csvOfTable(table: PointTable): string {
  return `\uFEFF${Papa.unparse({ fields: table.header, data: table.rows }, { newline: '\r\n' })}\r\n`;
}
