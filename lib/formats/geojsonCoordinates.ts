// A large GeoJSON geometry's coordinates read straight from the file's bytes into
// CompactCoordinates, with the checks and the words of the object validator
// (lib/geojson/geometry.ts: the same problems, found in the same order), so a 15 MB MultiPolygon
// never becomes millions of arrays. The bytes' JSON grammar is checked before (JsonBytes).
import { coordinatePath, geometryProblem, LIST_ITEMS, locationSuffix } from '../geojson/geometry.js';
import { Problem } from '../geojson/json-data.js';
import { CompactCoordinates } from './compactCoordinates.js';
import type { JsonBytes } from './jsonBytes.js';

export type CoordinateType = 'Point' | 'MultiPoint' | 'LineString' | 'MultiLineString' | 'Polygon' | 'MultiPolygon';

const DEPTH: Record<CoordinateType, number> = { Point: 0, MultiPoint: 1, LineString: 1, MultiLineString: 2, Polygon: 2, MultiPolygon: 3 };

const COMMA = 0x2c;
const CLOSE_LIST = 0x5d;

class CoordinateReader {
  readonly out: CompactCoordinates;
  /** The first three items of the position being read: their values, and whether each is a number. */
  private readonly values = new Float64Array(3);
  private readonly kinds = [false, false, false];

  constructor(
    private readonly json: JsonBytes,
    type: CoordinateType,
    private readonly prefix: string,
  ) {
    this.out = new CompactCoordinates(DEPTH[type]);
  }

  private isList(at: number | undefined): at is number {
    return at !== undefined && this.json.kind(at) === 'list';
  }

  /** One position; i/j/k locate it inside `coordinates` (-1 = unused). Returns where it ends. */
  position(at: number | undefined, i: number, j: number, k: number): number {
    if (!this.isList(at)) throw new Problem(geometryProblem.notPosition(coordinatePath(this.prefix, i, j, k)));
    // Called for every position: no closures (and their names) in here.
    const json = this.json;
    const values = this.values;
    let count = 0;
    let p = json.space(at + 1);
    if (json.at(p) === CLOSE_LIST) p++;
    else {
      for (;;) {
        let end: number;
        const isNumber = count < 3 && json.kind(p) === 'number';
        if (isNumber) {
          end = json.numberEnd(p);
          values[count] = json.numberValue(p, end);
        } else end = json.valueEnd(p);
        if (count < 3) this.kinds[count] = isNumber;
        count++;
        p = json.space(end);
        const next = json.at(p);
        if (next === COMMA) {
          p = json.space(p + 1);
          continue;
        }
        if (next !== CLOSE_LIST) json.fail(p, '"," or "]"');
        p++;
        break;
      }
    }
    if (count !== 2 && count !== 3) throw new Problem(geometryProblem.positionLength(coordinatePath(this.prefix, i, j, k), count));
    const lon = this.number(0, i, j, k);
    const lat = this.number(1, i, j, k);
    if (lon < -180 || lon > 180) throw new Problem(geometryProblem.longitude(lon, coordinatePath(this.prefix, i, j, k)));
    if (lat < -90 || lat > 90) throw new Problem(geometryProblem.latitude(lat, coordinatePath(this.prefix, i, j, k)));
    this.out.addPosition(lon, lat, count === 3 ? this.number(2, i, j, k) : Number.NaN);
    return p;
  }

  /** Item c of the position just read, which must be a finite number. */
  private number(c: number, i: number, j: number, k: number): number {
    if (!this.kinds[c]) throw new Problem(geometryProblem.notNumber(coordinatePath(this.prefix, i, j, k, c)));
    const value = this.values[c]!;
    if (!Number.isFinite(value)) throw new Problem(geometryProblem.notFinite(coordinatePath(this.prefix, i, j, k, c), value));
    return value;
  }

  /** A list of positions (MultiPoint coordinates, a line, a ring); i/j locate the list. Returns its end and length. */
  positions(at: number | undefined, i: number, j: number, what: string): { end: number; count: number } {
    if (!this.isList(at)) throw new Problem(geometryProblem.notPositions(coordinatePath(this.prefix, i, j), what));
    this.out.openList();
    // Positions are indexed one level below the list.
    const end = this.json.items(at, (start, n) => (i < 0 ? this.position(start, n, -1, -1) : j < 0 ? this.position(start, i, n, -1) : this.position(start, i, j, n)));
    return { end, count: this.out.closeList() };
  }

  line(at: number | undefined, i: number): number {
    const { end, count } = this.positions(at, i, -1, 'a line');
    if (count < 2) throw new Problem(geometryProblem.shortLine(coordinatePath(this.prefix, i), count));
    return end;
  }

  /** A polygon's rings; i is the polygon's index inside a MultiPolygon (-1 for a Polygon). */
  rings(at: number | undefined, i: number): number {
    const prefix = this.prefix;
    if (!this.isList(at)) throw new Problem(geometryProblem.notRings(coordinatePath(prefix, i)));
    this.out.openList();
    const end = this.json.items(at, (start, r) => {
      const first = this.out.positionCount;
      const ring = i < 0 ? this.positions(start, r, -1, 'a ring') : this.positions(start, i, r, 'a ring');
      if (ring.count < 4) throw new Problem(geometryProblem.shortRing(r, ring.count, locationSuffix(prefix, i)));
      if (!this.out.samePosition(first, first + ring.count - 1)) throw new Problem(geometryProblem.openRing(r, locationSuffix(prefix, i)));
      return ring.end;
    });
    if (this.out.closeList() === 0) throw new Problem(geometryProblem.noRings(coordinatePath(prefix, i)));
    return end;
  }

  /** The outer list of a Multi type: a list, not empty; `item` reads each. */
  multi(at: number | undefined, type: keyof typeof LIST_ITEMS, item: (start: number, index: number) => number): void {
    if (!this.isList(at)) throw new Problem(geometryProblem.notList(this.prefix));
    this.out.openList();
    this.json.items(at, item);
    if (this.out.closeList() === 0) throw new Problem(geometryProblem.emptyList(this.prefix, type, LIST_ITEMS[type]));
  }
}

/**
 * Reads and checks the coordinates of a geometry of `type` whose value starts at `at` in the
 * bytes (undefined: the geometry has no coordinates). `prefix` is how messages name what is
 * inside the geometry ("" for a feature's geometry). Throws Problem, worded as copyGeometry's.
 */
export function readCoordinates(json: JsonBytes, at: number | undefined, type: CoordinateType, prefix: string): CompactCoordinates {
  const reader = new CoordinateReader(json, type, prefix);
  if (at !== undefined) json.read(at);
  switch (type) {
    case 'Point':
      reader.position(at, -1, -1, -1);
      break;
    case 'MultiPoint':
      reader.multi(at, type, (start, n) => reader.position(start, n, -1, -1));
      break;
    case 'LineString':
      reader.line(at, -1);
      break;
    case 'MultiLineString':
      reader.multi(at, type, (start, i) => reader.line(start, i));
      break;
    case 'Polygon':
      reader.rings(at, -1);
      break;
    case 'MultiPolygon':
      reader.multi(at, type, (start, i) => reader.rings(start, i));
      break;
  }
  return reader.out;
}
