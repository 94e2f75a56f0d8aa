// Positions read from text (KML <coordinates>, gx:coord) and the checks every position of an
// import passes: finite numbers, longitude -180..180, latitude -90..90.
import type { Position } from '../../geojson/model.js';
import { isSpace, scanEnd, scanNumber } from './numbers.js';

/** null when the position may be stored, otherwise why not. */
export function lonLatProblem(lon: number, lat: number): string | null {
  if (Number.isNaN(lon) || Number.isNaN(lat)) return 'a coordinate is not a number';
  if (!Number.isFinite(lon) || !Number.isFinite(lat)) return 'a coordinate is not a finite number';
  if (lon < -180 || lon > 180) return `longitude ${lon} is outside -180..180`;
  if (lat < -90 || lat > 90) return `latitude ${lat} is outside -90..90`;
  return null;
}

/** A token of the text for a message: at most 20 characters from `start` up to white space or a comma. */
function tokenAt(text: string, start: number, end: number): string {
  let at = start;
  while (at < end && at - start < 20) {
    const code = text.charCodeAt(at);
    if (isSpace(code) || code === 44) break;
    at++;
  }
  return JSON.stringify(text.slice(start, at));
}

/** Counts the tuples of more than three numbers a reader met (their extra numbers are ignored). */
export interface TupleStats {
  longTuples: number;
}

/**
 * A KML coordinate list: tuples `lon,lat[,alt]` separated by white space (white space after a
 * comma is tolerated). Returns the positions, or a string saying what is wrong. An empty text
 * gives an empty list. A tuple of more than three numbers (`-122.08,37.42,0,20`, as some
 * exporters write) keeps longitude, latitude and altitude; `stats` counts such tuples.
 */
export function parseCoordinateList(text: string, stats?: TupleStats): Position[] | string {
  const positions: Position[] = [];
  const problem = readCoordinateTuples(
    text,
    (lon, lat, alt) => {
      positions.push(Number.isNaN(alt) ? [lon, lat] : [lon, lat, alt]);
    },
    stats,
  );
  return problem ?? positions;
}

/**
 * Reads a KML coordinate list tuple by tuple, handing each position to `add` (alt NaN when the
 * tuple has none); a large list goes straight into compact storage this way. Numbers after the
 * third of a tuple are read (they must be numbers) and ignored, counted in `stats`. Returns
 * null, or what is wrong.
 */
export function readCoordinateTuples(
  text: string,
  add: (lon: number, lat: number, alt: number) => void,
  stats?: TupleStats,
): string | null {
  const end = text.length;
  let at = 0;
  let count = 0;
  for (;;) {
    while (at < end && isSpace(text.charCodeAt(at))) at++;
    if (at >= end) return null;
    let values = 0;
    let lon = 0;
    let lat = 0;
    let alt = 0;
    for (;;) {
      const value = scanNumber(text, at, end);
      if (Number.isNaN(value)) return `${tokenAt(text, at, end)} is not a number`;
      at = scanEnd;
      if (values === 0) lon = value;
      else if (values === 1) lat = value;
      else if (values === 2) alt = value;
      values++;
      let next = at;
      while (next < end && isSpace(text.charCodeAt(next))) next++;
      if (next < end && text.charCodeAt(next) === 44 /* , */) {
        at = next + 1;
        while (at < end && isSpace(text.charCodeAt(at))) at++;
        if (at >= end) return `position ${count + 1} ends with a comma`;
        continue;
      }
      if (at < end && !isSpace(text.charCodeAt(at))) return `${tokenAt(text, at, end)} is not a number`;
      at = next;
      break;
    }
    if (values < 2) return `position ${count + 1} has a single number; longitude and latitude are needed`;
    const problem = lonLatProblem(lon, lat);
    if (problem !== null) return `position ${count + 1}: ${problem}`;
    if (values >= 3 && !Number.isFinite(alt)) return `position ${count + 1}: the altitude is not a finite number`;
    if (values > 3 && stats !== undefined) stats.longTuples++;
    add(lon, lat, values >= 3 ? alt : Number.NaN);
    count++;
  }
}

/** gx:coord: `lon lat [alt]` separated by white space (more numbers are ignored, counted in `stats`). */
export function parseSpacedPosition(text: string, stats?: TupleStats): Position | string {
  const end = text.length;
  const values: number[] = [];
  let at = 0;
  for (;;) {
    while (at < end && isSpace(text.charCodeAt(at))) at++;
    if (at >= end) break;
    const value = scanNumber(text, at, end);
    if (Number.isNaN(value) || (scanEnd < end && !isSpace(text.charCodeAt(scanEnd)))) {
      return `${tokenAt(text, at, end)} is not a number`;
    }
    values.push(value);
    at = scanEnd;
  }
  if (values.length > 3 && stats !== undefined) stats.longTuples++;
  if (values.length < 2) return 'a position needs longitude and latitude';
  const [lon, lat, alt] = values as [number, number, number | undefined];
  const problem = lonLatProblem(lon, lat);
  if (problem !== null) return problem;
  if (alt === undefined) return [lon, lat];
  if (!Number.isFinite(alt)) return 'the altitude is not a finite number';
  return [lon, lat, alt];
}

/** Whether two positions are equal (same dimension, same numbers). */
export function samePosition(a: Position, b: Position): boolean {
  return a.length === b.length && a[0] === b[0] && a[1] === b[1] && a[2] === b[2];
}

/**
 * Closes a ring in place (appends the first position when the last differs). Returns null, or
 * why the ring cannot be a polygon ring (fewer than 4 positions once closed).
 */
export function closeRing(ring: Position[]): string | null {
  const first = ring[0];
  if (first === undefined) return 'a ring has no positions';
  if (!samePosition(first, ring[ring.length - 1] as Position)) ring.push(first.slice() as Position);
  if (ring.length < 4) return `a ring has ${ring.length - 1} distinct positions; a polygon ring needs at least 3`;
  return null;
}
