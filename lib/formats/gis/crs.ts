// A file's declared coordinate system → a transform to WGS 84 longitude/latitude (proj4).
// WKT (a Shapefile's .prj, a GeoPackage's or FlatGeobuf's definition) is parsed by proj4
// itself; an EPSG code is looked up in epsg-index's per-code files (read on demand, never its
// 8 MB index). Geographic WGS 84 (EPSG:4326, OGC CRS84) needs no transform. A system proj4
// cannot read, or a code that is not in the index, is refused with `unknown_crs`, naming it.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import proj4 from 'proj4';
import { AppError } from '../../errors.js';
import { shorten } from '../../geojson/json-data.js';

/** x, y in the file's system → [longitude, latitude]; null: the coordinates are longitude/latitude already. */
export type ToWgs84 = ((x: number, y: number) => [number, number]) | null;

export interface Crs {
  /** For messages: "EPSG:3067", "ETRS89 / TM35FIN(E,N)". */
  name: string;
  toWgs84: ToWgs84;
}

export const WGS84: Crs = { name: 'WGS 84', toWgs84: null };

const require = createRequire(import.meta.url);
let epsgFolder: string | undefined;

/** EPSG codes that are WGS 84 longitude/latitude (4326) or the same with another name. */
const WGS84_CODES: ReadonlySet<number> = new Set([4326]);

function refuse(what: string, detail: string): never {
  throw new AppError('unknown_crs', `${what} is in the coordinate system ${detail}, which this service cannot convert to longitude and latitude`);
}

function transformOf(definition: string): (x: number, y: number) => [number, number] {
  const converter = proj4(definition, 'WGS84');
  return (x, y) => converter.forward([x, y]) as [number, number];
}

/** The name a WKT gives itself (`PROJCS["name", …`). */
export function wktName(wkt: string): string | undefined {
  return /^\s*[A-Z_]+\s*\[\s*"([^"]*)"/.exec(wkt)?.[1];
}

/** Geographic WGS 84 in WKT (a GEOGCS of the WGS 84 datum in degrees, no projection). */
function isWgs84Wkt(wkt: string): boolean {
  const head = wkt.trimStart();
  if (!/^GEOG(CS|CRS)\s*\[/i.test(head)) return false;
  return /DATUM\s*\[\s*"(D_)?WGS_?(19)?84"|DATUM\s*\[\s*"World Geodetic System 1984"/i.test(head) && !/PROJCS|PROJCRS|BASEGEOGCRS/i.test(head);
}

/** The system of a WKT definition; `what` names the file for messages ("the shapefile"). */
export function crsFromWkt(wkt: string, what: string): Crs {
  const text = wkt.trim();
  const name = wktName(text) ?? shorten(text, 60);
  if (isWgs84Wkt(text)) return WGS84;
  const code = /AUTHORITY\s*\[\s*"EPSG"\s*,\s*"?(\d+)"?\s*\]\s*\]\s*$/i.exec(text)?.[1];
  try {
    const toWgs84 = transformOf(text);
    const probe = toWgs84(0, 0);
    if (!probe.every((value) => typeof value === 'number')) throw new Error('no numbers');
    return { name, toWgs84 };
  } catch {
    // proj4 reads most WKT; a definition it cannot read may still name its EPSG code.
    if (code !== undefined) return crsFromEpsg(Number(code), what, name);
    return refuse(what, JSON.stringify(name));
  }
}

/** The system of an EPSG code (as GeoPackages and FlatGeobuf files declare theirs). */
export function crsFromEpsg(code: number, what: string, name = `EPSG:${code}`): Crs {
  if (WGS84_CODES.has(code)) return WGS84;
  if (!Number.isSafeInteger(code) || code <= 0) return refuse(what, name);
  epsgFolder ??= require.resolve('epsg-index/s/4326.json').replace(/4326\.json$/, '');
  let entry: { proj4?: string; name?: string } | undefined;
  try {
    entry = JSON.parse(fs.readFileSync(`${epsgFolder}${code}.json`, 'utf8')) as { proj4?: string; name?: string };
  } catch {
    entry = undefined;
  }
  if (entry?.proj4 === undefined || entry.proj4 === '') return refuse(what, name);
  try {
    return { name: `EPSG:${code} (${entry.name ?? name})`, toWgs84: transformOf(entry.proj4) };
  } catch {
    return refuse(what, `EPSG:${code} (${entry.name ?? name})`);
  }
}
