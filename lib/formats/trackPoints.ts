// The points of a GPX route or track, kept compactly while the file is read: a track of 150,000
// points would otherwise be 150,000 arrays and as many time strings, and then one 8 MB JSON
// string. Positions go into a Float64Array (NaN where a point has no elevation), times into a
// TextTable ('' where a point has none); the feature's coordinates and `times` are JsonPieces
// over them, written to the document file piece by piece.
import type { Position } from '../geojson/model.js';
import { BoundsBuilder, type BBox } from './featureRows.js';
import { JsonPieces } from './jsonPieces.js';
import { TextTable } from './textTable.js';

/** Points [start, end) of the store: one segment of a track, or a route. */
export interface Segment {
  start: number;
  end: number;
}

/** Points per piece of JSON text (about 30 characters each for coordinates). */
const POINTS_PER_PIECE = 2000;

export class TrackPoints {
  private coordinates = new Float64Array(3 * 16);
  private readonly times = new TextTable(256);
  private size = 0;

  get count(): number {
    return this.size;
  }

  push(lon: number, lat: number, ele: number, time: string | undefined): void {
    if (this.size * 3 === this.coordinates.length) {
      const longer = new Float64Array(this.coordinates.length * 2);
      longer.set(this.coordinates);
      this.coordinates = longer;
    }
    const at = this.size * 3;
    this.coordinates[at] = lon;
    this.coordinates[at + 1] = lat;
    this.coordinates[at + 2] = ele;
    this.times.add(time ?? '');
    this.size++;
  }

  /** Keeps the first `count` points only (a segment too short to keep is dropped). */
  truncate(count: number): void {
    this.size = Math.min(this.size, count);
    this.times.truncate(this.size);
  }

  position(index: number): Position {
    const at = index * 3;
    const lon = this.coordinates[at] as number;
    const lat = this.coordinates[at + 1] as number;
    const ele = this.coordinates[at + 2] as number;
    return Number.isNaN(ele) ? [lon, lat] : [lon, lat, ele];
  }

  /** The point's time, or null. */
  time(index: number): string | null {
    return this.times.get(index) || null;
  }
}

/** The items of points [from, to), as plain values. */
type Items = (from: number, to: number) => unknown[];

/**
 * Writes `[item,item,…]` for the points of a segment, a few thousand points per piece (each
 * piece by JSON.stringify, which formats numbers faster than string building does).
 */
function writeSegment(segment: Segment, items: Items, write: (text: string) => void): void {
  write('[');
  for (let from = segment.start; from < segment.end; from += POINTS_PER_PIECE) {
    const text = JSON.stringify(items(from, Math.min(segment.end, from + POINTS_PER_PIECE)));
    write((from === segment.start ? '' : ',') + text.slice(1, -1));
  }
  write(']');
}

/** A list per segment when there are several (MultiLineString), else the one segment's list. */
abstract class PerSegment extends JsonPieces {
  constructor(
    protected readonly points: TrackPoints,
    protected readonly segments: readonly Segment[],
  ) {
    super();
  }

  protected abstract item(index: number): unknown;

  private readonly items: Items = (from, to) => {
    const list: unknown[] = [];
    for (let index = from; index < to; index++) list.push(this.item(index));
    return list;
  };

  writeJson(write: (text: string) => void): void {
    const [only] = this.segments;
    if (this.segments.length === 1 && only !== undefined) {
      writeSegment(only, this.items, write);
      return;
    }
    write('[');
    this.segments.forEach((segment, number) => {
      if (number > 0) write(',');
      writeSegment(segment, this.items, write);
    });
    write(']');
  }

  toJSON(): unknown {
    const lists = this.segments.map((segment) => this.items(segment.start, segment.end));
    return lists.length === 1 ? lists[0] : lists;
  }
}

/** A LineString's or MultiLineString's coordinates. */
export class TrackCoordinates extends PerSegment {
  protected item(index: number): Position {
    return this.points.position(index);
  }

  /** [west, south, east, north] of the segments' points; null when there are none. */
  bounds(): BBox | null {
    const box = new BoundsBuilder();
    for (const segment of this.segments) {
      for (let index = segment.start; index < segment.end; index++) {
        const [lon, lat] = this.points.position(index);
        box.add(lon, lat);
      }
    }
    return box.box();
  }
}

/** The `times` property: each point's time or null, per segment like the coordinates. */
export class TrackTimes extends PerSegment {
  protected item(index: number): string | null {
    return this.points.time(index);
  }
}
