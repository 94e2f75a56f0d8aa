// A geometry's coordinates kept compactly, for geometries too large to build as objects (a
// 15 MB MultiPolygon of 500,000 rings is millions of small arrays: about 30 times the file in
// memory, twice over while it is copied). Positions go into Float64Arrays of a fixed size
// (longitude and latitude; altitudes apart, only when a position has one); the nesting is kept
// as counts. The coordinates
// are JsonPieces: written to the document file piece by piece, as JSON.stringify would write them.
import type { Position } from '../geojson/model.js';
import { BoundsBuilder, type BBox } from './featureRows.js';
import { JsonPieces } from './jsonPieces.js';

/** A growable list of integers. */
class Counts {
  values = new Int32Array(16);
  size = 0;

  push(value: number): void {
    if (this.size === this.values.length) {
      const longer = new Int32Array(this.values.length * 2);
      longer.set(this.values);
      this.values = longer;
    }
    this.values[this.size++] = value;
  }
}

/** About how many characters of text go out in one piece. */
const PIECE_CHARS = 32 * 1024;

/**
 * The coordinates of one geometry: `depth` levels of lists above the positions (0: a Point's
 * one position; 1: a line, a ring's positions or MultiPoint; 2: Polygon or MultiLineString;
 * 3: MultiPolygon). A builder opens and closes lists and adds positions in document order.
 */
/** Positions per chunk of storage: chunks are never copied as the geometry grows. */
const CHUNK_BITS = 15;
const CHUNK = 1 << CHUNK_BITS;
const IN_CHUNK = CHUNK - 1;

export class CompactCoordinates extends JsonPieces {
  /** Longitude and latitude of each position, CHUNK positions per array. */
  private readonly values: Float64Array[] = [];
  /** The altitude of each position (NaN: none), in chunks like values; none until a position has one. */
  private altitudes: Float64Array[] | null = null;
  private positions = 0;
  /** counts[level]: how many items each list at that level holds, in order (level 0: the outer list). */
  private readonly counts: Counts[] = [];
  /** Items of the lists open while building, one per level. */
  private readonly open: number[] = [];

  constructor(readonly depth: number) {
    super();
    for (let level = 0; level < depth; level++) this.counts.push(new Counts());
  }

  get positionCount(): number {
    return this.positions;
  }

  openList(): void {
    if (this.open.length > 0) this.open[this.open.length - 1]!++;
    this.open.push(0);
  }

  /** Closes the innermost open list; returns how many items it held. */
  closeList(): number {
    const items = this.open.pop()!;
    this.counts[this.open.length]!.push(items);
    return items;
  }

  addPosition(lon: number, lat: number, alt = Number.NaN): void {
    if (this.open.length > 0) this.open[this.open.length - 1]!++;
    const index = this.positions++;
    const offset = index & IN_CHUNK;
    if (offset === 0) this.values.push(new Float64Array(2 * Math.min(CHUNK, Math.max(64, index))));
    let chunk = this.values[index >> CHUNK_BITS]!;
    if (2 * offset >= chunk.length) {
      // The first chunk starts small (most geometries are small) and grows to a full one.
      const longer = new Float64Array(Math.min(2 * CHUNK, chunk.length * 4));
      longer.set(chunk);
      this.values[index >> CHUNK_BITS] = chunk = longer;
    }
    chunk[2 * offset] = lon;
    chunk[2 * offset + 1] = lat;
    if (!Number.isNaN(alt) || this.altitudes !== null) this.setAltitude(index, alt);
  }

  private setAltitude(index: number, alt: number): void {
    this.altitudes ??= [];
    while (this.altitudes.length <= index >> CHUNK_BITS) this.altitudes.push(new Float64Array(CHUNK).fill(Number.NaN));
    this.altitudes[index >> CHUNK_BITS]![index & IN_CHUNK] = alt;
  }

  private lon(index: number): number {
    return this.values[index >> CHUNK_BITS]![2 * (index & IN_CHUNK)]!;
  }

  private lat(index: number): number {
    return this.values[index >> CHUNK_BITS]![2 * (index & IN_CHUNK) + 1]!;
  }

  private altitude(index: number): number {
    return this.altitudes?.[index >> CHUNK_BITS]?.[index & IN_CHUNK] ?? Number.NaN;
  }

  position(index: number): Position {
    const alt = this.altitude(index);
    return Number.isNaN(alt) ? [this.lon(index), this.lat(index)] : [this.lon(index), this.lat(index), alt];
  }

  /** Whether two positions are the same (same numbers, same dimension). */
  samePosition(a: number, b: number): boolean {
    const altA = this.altitude(a);
    const altB = this.altitude(b);
    return this.lon(a) === this.lon(b) && this.lat(a) === this.lat(b) && (Number.isNaN(altA) ? Number.isNaN(altB) : altA === altB);
  }

  /** The longitude and latitude of a position into `out` at `at` (no array made per position). */
  readLonLat(index: number, out: Float64Array, at: number): void {
    out[at] = this.lon(index);
    out[at + 1] = this.lat(index);
  }

  /**
   * The innermost lists in order, for a geometry with lists (depth 1 and more): a line's or a
   * ring's positions (MultiPoint: all of them in one list) as `first` and `count`, and whether the
   * list starts a new polygon of a MultiPolygon (always true at depth 1 and 2).
   */
  forEachList(visit: (first: number, count: number, startsPolygon: boolean) => void): void {
    if (this.depth === 0) return;
    const inner = this.counts[this.depth - 1]!;
    const ringsPerPolygon = this.depth >= 3 ? this.counts[this.depth - 2]! : null;
    let position = 0;
    let polygon = 0;
    let ringsLeft = 0;
    for (let list = 0; list < inner.size; list++) {
      let startsPolygon = true;
      if (ringsPerPolygon) {
        startsPolygon = ringsLeft === 0;
        while (ringsLeft === 0 && polygon < ringsPerPolygon.size) ringsLeft = ringsPerPolygon.values[polygon++]!;
        ringsLeft--;
      }
      const count = inner.values[list]!;
      visit(position, count, startsPolygon);
      position += count;
    }
  }

  /** [west, south, east, north] of the positions; null when there are none. */
  bounds(): BBox | null {
    if (this.positions === 0) return null;
    const box = new BoundsBuilder();
    for (let index = 0; index < this.positions; index++) box.add(this.lon(index), this.lat(index));
    return box.box();
  }

  private positionText(index: number): string {
    const lon = this.lon(index);
    const lat = this.lat(index);
    const alt = this.altitude(index);
    // String() of a finite number is its JSON text (-0 included: "0").
    return Number.isNaN(alt) ? `[${lon},${lat}]` : `[${lon},${lat},${alt}]`;
  }

  writeJson(write: (text: string) => void): void {
    let buffer = '';
    const out = (text: string) => {
      buffer += text;
      if (buffer.length >= PIECE_CHARS) {
        write(buffer);
        buffer = '';
      }
    };
    if (this.depth === 0) out(this.positionText(0));
    else {
      const cursors = this.counts.map(() => 0);
      let next = 0;
      const list = (level: number) => {
        const items = this.counts[level]!.values[cursors[level]!++]!;
        out('[');
        for (let item = 0; item < items; item++) {
          if (item > 0) out(',');
          if (level === this.depth - 1) out(this.positionText(next++));
          else list(level + 1);
        }
        out(']');
      };
      list(0);
    }
    if (buffer !== '') write(buffer);
  }

  toJSON(): unknown {
    if (this.depth === 0) return this.position(0);
    const cursors = this.counts.map(() => 0);
    let next = 0;
    const list = (level: number): unknown[] => {
      const items = this.counts[level]!.values[cursors[level]!++]!;
      const out: unknown[] = [];
      for (let item = 0; item < items; item++) out.push(level === this.depth - 1 ? this.position(next++) : list(level + 1));
      return out;
    };
    return list(0);
  }
}
