// OGC API – Features (Part 1: Core, OGC 17-069r4) of a map: its query parameters read and
// checked, its collections' ids, and the tests of a feature's time and properties. The routes are
// api/web/ogcRoutes.ts; the reads db/ogcReads.ts.
import type { BBox } from './formats/featureRows.js';
import type { GroupId, MapGroup } from './geojson/model.js';

export const OGC_DEFAULT_LIMIT = 100;
export const OGC_MAX_LIMIT = 10_000;
/** A page ends early once it holds this many bytes of features (as feature/list's). */
export const OGC_MAX_PAGE_BYTES = 8 * 1024 * 1024;

export const CRS84 = 'http://www.opengis.net/def/crs/OGC/1.3/CRS84';
export const GREGORIAN = 'http://www.opengis.net/def/uom/ISO-8601/0/Gregorian';

export const CONFORMANCE = [
  'http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/core',
  'http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/geojson',
  'http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/html',
  'http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/oas30',
];

/** Bad input: answered as the standard's exception, `{code, description}`, with this status. */
export class OgcError extends Error {
  constructor(
    readonly status: 400 | 404,
    readonly code: string,
    description: string,
  ) {
    super(description);
  }
}

/** The whole map's collection. */
export const MAP_COLLECTION = 'map';
const GROUP_PREFIX = 'group-';

export const groupCollectionId = (id: GroupId): string => `${GROUP_PREFIX}${id}`;

/** The group a collection id names ('map': none), or an OgcError when the map has no such collection. */
export function collectionGroup(collectionId: string, groups: readonly MapGroup[]): { group: MapGroup | undefined } {
  if (collectionId === MAP_COLLECTION) return { group: undefined };
  if (collectionId.startsWith(GROUP_PREFIX)) {
    const rest = collectionId.slice(GROUP_PREFIX.length);
    const group = groups.find((g) => typeof g.id === 'number' && String(g.id) === rest) ?? groups.find((g) => g.id === rest);
    if (group) return { group };
  }
  throw new OgcError(404, 'NotFound', `The map has no collection "${collectionId}": its collections are listed at /collections.`);
}

export interface ItemsParams {
  limit: number;
  offset: number;
  /** Where the previous page ended (our `next` links carry it): the page starts after that row. */
  cursor: number | undefined;
  bbox: BBox | undefined;
  datetime: TimeInterval | undefined;
  /** Property name → the value asked for (equality). */
  properties: [string, string][];
}

/** [start, end] in milliseconds; null: unbounded. */
export type TimeInterval = [number | null, number | null];

const RESERVED = new Set(['limit', 'offset', 'bbox', 'bbox-crs', 'datetime', 'f', 'cursor', 'crs']);

function integer(name: string, text: string, min: number, max: number): number {
  if (!/^\d{1,16}$/.test(text.trim())) throw new OgcError(400, 'InvalidParameterValue', `"${name}" must be a whole number from ${min} to ${max}, not "${text}".`);
  const value = Number(text.trim());
  if (value < min || value > max) throw new OgcError(400, 'InvalidParameterValue', `"${name}" must be from ${min} to ${max}, not ${value}.`);
  return value;
}

/** `bbox=west,south,east,north` (or six numbers with heights, which are not used), in degrees. */
export function parseBbox(text: string): BBox {
  const parts = text.split(',').map((part) => part.trim());
  const numbers = parts.map(Number);
  if ((parts.length !== 4 && parts.length !== 6) || parts.some((part) => part === '') || numbers.some((n) => !Number.isFinite(n))) {
    throw new OgcError(400, 'InvalidParameterValue', `"bbox" must be four numbers, west,south,east,north in degrees (or six with heights), not "${text}".`);
  }
  const [west, south, east, north] = parts.length === 4 ? numbers : [numbers[0], numbers[1], numbers[3], numbers[4]];
  if (Math.abs(west!) > 180 || Math.abs(east!) > 180) throw new OgcError(400, 'InvalidParameterValue', `"bbox": longitudes must be within -180…180 (got ${west} and ${east}).`);
  if (Math.abs(south!) > 90 || Math.abs(north!) > 90) throw new OgcError(400, 'InvalidParameterValue', `"bbox": latitudes must be within -90…90 (got ${south} and ${north}).`);
  if (south! > north!) throw new OgcError(400, 'InvalidParameterValue', `"bbox": its south (${south}) is above its north (${north}).`);
  return [west!, south!, east!, north!];
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?([Zz]|[+-]\d{2}:?\d{2})?$/;

/** An RFC 3339 instant (a date alone: that whole day, UTC) as [start, end] milliseconds; undefined when it is not one. */
function instant(text: string): [number, number] | undefined {
  if (DATE.test(text)) {
    const start = Date.parse(`${text}T00:00:00Z`);
    return Number.isNaN(start) || new Date(start).toISOString().slice(0, 10) !== text ? undefined : [start, start + 86_400_000 - 1];
  }
  if (!DATE_TIME.test(text)) return undefined;
  // Without an offset the time is taken as UTC.
  const withZone = /([Zz]|[+-]\d{2}:?\d{2})$/.test(text) ? text : `${text}Z`;
  const at = Date.parse(withZone.replace(' ', 'T'));
  return Number.isNaN(at) ? undefined : [at, at];
}

/** `datetime`: an instant, or an interval `start/end` with `..` (or nothing) for an open end. */
export function parseDatetime(text: string): TimeInterval {
  const bad = () => new OgcError(400, 'InvalidParameterValue', `"datetime" must be an RFC 3339 date or date-time, or an interval "start/end" ("..": open), not "${text}".`);
  const parts = text.trim().split('/');
  if (parts.length === 1) {
    const at = instant(parts[0]!);
    if (!at) throw bad();
    return at;
  }
  if (parts.length !== 2) throw bad();
  const ends = parts.map((part) => (part === '..' || part === '' ? null : (instant(part) ?? bad())));
  if (ends[0] === null && ends[1] === null) throw bad();
  const start = ends[0] ? (ends[0] as [number, number])[0] : null;
  const end = ends[1] ? (ends[1] as [number, number])[1] : null;
  if (start !== null && end !== null && start > end) throw new OgcError(400, 'InvalidParameterValue', `"datetime": the interval's start is after its end ("${text}").`);
  return [start, end];
}

/** The items request's parameters (the query string as Koa reads it); property filters are the names that are not the standard's. */
export function itemsParams(query: Record<string, string | string[] | undefined>): ItemsParams {
  const one = (name: string): string | undefined => {
    const value = query[name];
    if (Array.isArray(value)) throw new OgcError(400, 'InvalidParameterValue', `"${name}" was given ${value.length} times; give it once.`);
    return value;
  };
  const limit = one('limit');
  const offset = one('offset');
  const cursor = one('cursor');
  const bbox = one('bbox');
  const datetime = one('datetime');
  const crs = one('bbox-crs');
  if (crs !== undefined && crs !== CRS84) throw new OgcError(400, 'InvalidParameterValue', `"bbox-crs": only ${CRS84} is supported.`);
  const properties: [string, string][] = [];
  for (const name of Object.keys(query)) if (!RESERVED.has(name)) properties.push([name, one(name) ?? '']);
  return {
    limit: limit === undefined ? OGC_DEFAULT_LIMIT : integer('limit', limit, 1, OGC_MAX_LIMIT),
    offset: offset === undefined ? 0 : integer('offset', offset, 0, Number.MAX_SAFE_INTEGER),
    cursor: cursor === undefined ? undefined : integer('cursor', cursor, 0, Number.MAX_SAFE_INTEGER),
    bbox: bbox === undefined ? undefined : parseBbox(bbox),
    datetime: datetime === undefined ? undefined : parseDatetime(datetime),
    properties,
  };
}

/** A feature's time: its `time` property (an instant), or `begin`/`end` (KML's TimeSpan); undefined when it has none. */
export function featureTime(properties: Record<string, unknown>): TimeInterval | undefined {
  const read = (value: unknown) => (typeof value === 'string' ? instant(value.trim()) : undefined);
  const at = read(properties.time);
  if (at) return at;
  const begin = read(properties.begin);
  const end = read(properties.end);
  if (!begin && !end) return undefined;
  return [begin ? begin[0] : null, end ? end[1] : null];
}

const meets = (a: TimeInterval, b: TimeInterval): boolean => (a[0] === null || b[1] === null || a[0] <= b[1]) && (a[1] === null || b[0] === null || b[0] <= a[1]);

/** Whether a property's value is the one asked for: text as it is, a number or true/false as written. */
function sameValue(value: unknown, asked: string): boolean {
  if (typeof value === 'string') return value === asked;
  if (typeof value === 'number') return asked.trim() !== '' && Number(asked) === value;
  if (typeof value === 'boolean') return String(value) === asked;
  return false;
}

/** The test of a feature's text for `datetime` and the property filters; undefined when there are none (no text is parsed). */
export function featureTest(params: Pick<ItemsParams, 'datetime' | 'properties'>): ((text: string) => boolean) | undefined {
  const { datetime, properties } = params;
  if (!datetime && properties.length === 0) return undefined;
  return (text) => {
    const props = ((JSON.parse(text) as { properties?: Record<string, unknown> | null }).properties ?? {}) as Record<string, unknown>;
    if (datetime) {
      const time = featureTime(props);
      if (!time || !meets(time, datetime)) return false;
    }
    return properties.every(([name, asked]) => Object.hasOwn(props, name) && sameValue(props[name], asked));
  };
}

/** The union of bounding boxes (null when there are none). */
export function unionBox(boxes: readonly BBox[]): BBox | null {
  if (boxes.length === 0) return null;
  return [Math.min(...boxes.map((b) => b[0])), Math.min(...boxes.map((b) => b[1])), Math.max(...boxes.map((b) => b[2])), Math.max(...boxes.map((b) => b[3]))];
}

/** The earliest and latest of RFC 3339 times as ISO strings (times that are not RFC 3339 are left out); null when none are. */
export function timeSpan(times: readonly string[]): [string, string] | null {
  const ms = times.map((t) => instant(t.trim())).filter((t): t is [number, number] => t !== undefined);
  if (ms.length === 0) return null;
  return [new Date(Math.min(...ms.map((t) => t[0]))).toISOString(), new Date(Math.max(...ms.map((t) => t[1]))).toISOString()];
}
