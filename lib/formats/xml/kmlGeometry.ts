// KML geometry while it is read: Point, LineString, LinearRing (a closed LineString on its own),
// Polygon with inner rings and gx:Track collect into parts of the placemark, which become one
// GeoJSON geometry at its end (Multi* when all parts are of one kind, else a GeometryCollection).
// A placemark with any invalid geometry gets the reason as its problem (it is then skipped). An
// empty geometry (`<Point><coordinates/></Point>`, as Google Timeline exports write beside their
// gx:Track) adds nothing: the placemark is made of its other parts, and only when it has none is
// it skipped, for the empty geometry. A gx:Track of one position is a point.
import type { Geometry, Position } from '../../geojson/model.js';
import { CompactCoordinates } from '../compactCoordinates.js';
import { plural } from '../skipped.js';
import { closeRing, parseCoordinateList, parseSpacedPosition, readCoordinateTuples, type TupleStats } from './positions.js';

export const POINT = 0;
export const LINE = 1;
export const POLYGON = 2;

export interface Part {
  kind: typeof POINT | typeof LINE | typeof POLYGON;
  /** A long line's positions are kept compactly (CompactCoordinates), not as arrays. */
  coordinates: Position | Position[] | Position[][] | CompactCoordinates;
  times?: string[];
  /** A point from a gx:Track of one position: its `when`. */
  time?: string;
}

/** What geometry is read into: the placemark's parts, or the reason it cannot be imported. */
export interface GeometryTarget {
  parts: Part[];
  problem?: string;
  /** The first empty geometry met: why the placemark is skipped if it has no other parts. */
  empty?: string;
}

/** Coordinate texts longer than this (about 40,000 positions) become CompactCoordinates. */
const LONG_COORDINATES = 1024 * 1024;

function singleGeometry(part: Part): Geometry {
  switch (part.kind) {
    case POINT:
      return { type: 'Point', coordinates: part.coordinates as Position };
    case LINE:
      return { type: 'LineString', coordinates: part.coordinates as Position[] };
    default:
      return { type: 'Polygon', coordinates: part.coordinates as Position[][] };
  }
}

/** The geometry of a placemark's parts (at least one). */
export function buildGeometry(parts: Part[]): Geometry {
  const first = parts[0] as Part;
  if (parts.length === 1) return singleGeometry(first);
  let sameKind = true;
  for (const part of parts) if (part.kind !== first.kind) sameKind = false;
  if (!sameKind) return { type: 'GeometryCollection', geometries: parts.map(singleGeometry) };
  switch (first.kind) {
    case POINT:
      return { type: 'MultiPoint', coordinates: parts.map((part) => part.coordinates as Position) };
    case LINE:
      return { type: 'MultiLineString', coordinates: parts.map((part) => part.coordinates as Position[]) };
    default:
      return { type: 'MultiPolygon', coordinates: parts.map((part) => part.coordinates as Position[][]) };
  }
}

/** `times` of a placemark made of lines that all carry times (tracks): a list, or a list per line. */
export function partTimes(parts: Part[]): string[] | string[][] | undefined {
  for (const part of parts) if (part.kind !== LINE || part.times === undefined) return undefined;
  if (parts.length === 1) return (parts[0] as Part).times;
  return parts.map((part) => part.times as string[]);
}

/** The most complex kind among the parts (a placemark's style follows it). */
export function partsKind(parts: Part[]): number {
  let kind = POINT;
  for (const part of parts) if (part.kind > kind) kind = part.kind;
  return kind;
}

/** The geometry elements of the placemark being read, between their start and end tags. */
export class KmlGeometryReader {
  private polygon: { outer: Position[] | undefined; inner: Position[][] } | null = null;
  private ringRole = 0; // 1 outer, 2 inner
  private track: { coords: Position[]; times: string[] } | null = null;
  private partsAtOpen = 0;
  /** Positions of more than three numbers met in the whole file (their extra numbers ignored). */
  readonly tuples: TupleStats = { longTuples: 0 };
  /** Line of the first placemark with such a position. */
  firstLongTupleLine: number | undefined;

  /** A geometry element starts (target: the placemark being read, if any). */
  open(name: string, target: GeometryTarget | null): void {
    switch (name) {
      case 'Point':
      case 'LineString':
        this.partsAtOpen = target?.parts.length ?? 0;
        return;
      case 'LinearRing':
        if (this.polygon === null) this.partsAtOpen = target?.parts.length ?? 0;
        return;
      case 'Polygon':
        this.polygon = { outer: undefined, inner: [] };
        this.ringRole = 0;
        return;
      case 'outerBoundaryIs':
        this.ringRole = 1;
        return;
      case 'innerBoundaryIs':
        this.ringRole = 2;
        return;
      case 'Track':
        this.track = { coords: [], times: [] };
        return;
      default:
        return;
    }
  }

  /** A geometry element ends. */
  close(name: string, target: GeometryTarget | null): void {
    switch (name) {
      case 'Point':
      case 'LineString':
        this.checkHadCoordinates(name, target);
        return;
      case 'LinearRing':
        if (this.polygon === null) this.checkHadCoordinates(name, target);
        return;
      case 'Polygon':
        this.finishPolygon(target);
        return;
      case 'outerBoundaryIs':
      case 'innerBoundaryIs':
        this.ringRole = 0;
        return;
      case 'Track':
        this.finishTrack(target);
        return;
      default:
        return;
    }
  }

  /** The text of <coordinates> inside `parent`. */
  coordinates(target: GeometryTarget, raw: string, parent: string | undefined): void {
    if (target.problem !== undefined) return;
    if (parent !== 'Point' && parent !== 'LineString' && parent !== 'LinearRing') return;
    if (parent === 'LineString' && raw.length > LONG_COORDINATES) {
      this.readLongLine(target, raw);
      return;
    }
    const positions = parseCoordinateList(raw, this.tuples);
    if (typeof positions === 'string') {
      target.problem = `${parent} coordinates: ${positions}`;
      return;
    }
    if (positions.length === 0) return; // empty: noted when the element closes
    if (parent === 'Point') {
      target.parts.push({ kind: POINT, coordinates: positions[0] as Position });
      return;
    }
    if (parent === 'LineString') {
      if (positions.length < 2) target.problem = `a LineString has ${plural(positions.length, 'position')}; a line needs at least 2`;
      else target.parts.push({ kind: LINE, coordinates: positions });
      return;
    }
    // LinearRing: a polygon ring, or on its own a closed line.
    const problem = closeRing(positions);
    if (problem !== null) {
      target.problem = problem;
      return;
    }
    const polygon = this.polygon;
    if (polygon === null) target.parts.push({ kind: LINE, coordinates: positions });
    else if (this.ringRole === 2) polygon.inner.push(positions);
    else if (polygon.outer === undefined) polygon.outer = positions;
    else target.problem = 'a Polygon has more than one outer ring';
  }

  /** A gx:Track's <when>; false when no track is being read. */
  trackTime(raw: string): boolean {
    if (this.track === null) return false;
    this.track.times.push(raw.trim());
    return true;
  }

  /** A gx:Track's <gx:coord>. */
  trackPosition(target: GeometryTarget, raw: string): void {
    if (this.track === null || target.problem !== undefined) return;
    const position = parseSpacedPosition(raw, this.tuples);
    if (typeof position === 'string') target.problem = `track position ${this.track.coords.length + 1}: ${position}`;
    else this.track.coords.push(position);
  }

  /** A long LineString (a recorded track, a detailed route): its positions go into compact storage. */
  private readLongLine(target: GeometryTarget, raw: string): void {
    const line = new CompactCoordinates(1);
    line.openList();
    const problem = readCoordinateTuples(raw, (lon, lat, alt) => line.addPosition(lon, lat, alt), this.tuples);
    if (problem !== null) {
      target.problem = `LineString coordinates: ${problem}`;
      return;
    }
    const count = line.closeList();
    if (count < 2) target.problem = `a LineString has ${plural(count, 'position')}; a line needs at least 2`;
    else target.parts.push({ kind: LINE, coordinates: line });
  }

  private checkHadCoordinates(name: string, target: GeometryTarget | null): void {
    if (target === null || target.problem !== undefined) return;
    if (target.parts.length === this.partsAtOpen) target.empty ??= `a ${name} has no coordinates`;
  }

  private finishPolygon(target: GeometryTarget | null): void {
    const polygon = this.polygon;
    this.polygon = null;
    this.ringRole = 0;
    if (polygon === null || target === null || target.problem !== undefined) return;
    if (polygon.outer === undefined) {
      target.problem = 'a Polygon has no outer ring';
      return;
    }
    target.parts.push({ kind: POLYGON, coordinates: [polygon.outer, ...polygon.inner] });
  }

  private finishTrack(target: GeometryTarget | null): void {
    const track = this.track;
    this.track = null;
    if (track === null || target === null || target.problem !== undefined) return;
    if (track.coords.length === 0) {
      target.empty ??= 'a track has no positions';
      return;
    }
    if (track.coords.length === 1) {
      const point: Part = { kind: POINT, coordinates: track.coords[0] as Position };
      if (track.times.length === 1) point.time = track.times[0];
      target.parts.push(point);
      return;
    }
    const part: Part = { kind: LINE, coordinates: track.coords };
    if (track.times.length === track.coords.length) part.times = track.times;
    target.parts.push(part);
  }
}
