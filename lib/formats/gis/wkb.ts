// Well-Known Binary → GeoJSON geometry shapes (./gisFeatures.ts converts and checks them), and
// the GeoPackage geometry blob around it (a "GP" header with flags, srs id and an envelope).
// Reads ISO WKB (Z, M and ZM as types 1001…, 2001…, 3001…) and the EWKB flags some writers use;
// Z is kept, M dropped. Curves, surfaces and TINs are refused by name. Every read is checked
// against the blob's end: a short blob is a WkbProblem, never an out-of-range read.
import type { RawGeometry } from './gisFeatures.js';

export class WkbProblem extends Error {}

const TYPE_NAMES: Readonly<Record<number, string>> = {
  8: 'CircularString',
  9: 'CompoundCurve',
  10: 'CurvePolygon',
  11: 'MultiCurve',
  12: 'MultiSurface',
  15: 'PolyhedralSurface',
  16: 'TIN',
  17: 'Triangle',
};

/** Nested collections deeper than this are refused (a hostile blob could nest without end). */
const MAX_DEPTH = 32;

class Reader {
  at = 0;
  private readonly view: DataView;
  constructor(private readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  need(count: number): void {
    if (this.at + count > this.bytes.length) throw new WkbProblem('the geometry blob is truncated');
  }
  u8(): number {
    this.need(1);
    return this.view.getUint8(this.at++);
  }
  u32(little: boolean): number {
    this.need(4);
    const value = this.view.getUint32(this.at, little);
    this.at += 4;
    return value;
  }
  f64(little: boolean): number {
    this.need(8);
    const value = this.view.getFloat64(this.at, little);
    this.at += 8;
    return value;
  }
}

function readGeometry(reader: Reader, depth: number): RawGeometry {
  if (depth > MAX_DEPTH) throw new WkbProblem('the geometry is nested too deeply');
  const order = reader.u8();
  if (order > 1) throw new WkbProblem('the geometry blob is not WKB (bad byte order)');
  const little = order === 1;
  const raw = reader.u32(little);
  let hasZ = (raw & 0x80000000) !== 0;
  let hasM = (raw & 0x40000000) !== 0;
  if ((raw & 0x20000000) !== 0) reader.u32(little); // EWKB srid
  let type = raw & 0x0fffffff;
  const dimension = Math.floor(type / 1000);
  type %= 1000;
  if (dimension === 1 || dimension === 3) hasZ = true;
  if (dimension === 2 || dimension === 3) hasM = true;
  const size = 2 + (hasZ ? 1 : 0) + (hasM ? 1 : 0);
  const position = (): number[] => {
    const x = reader.f64(little);
    const y = reader.f64(little);
    const z = hasZ ? reader.f64(little) : undefined;
    if (hasM) reader.f64(little);
    return z === undefined || Number.isNaN(z) ? [x, y] : [x, y, z];
  };
  const count = (each: number): number => {
    const n = reader.u32(little);
    reader.need(Math.min(n, 1) * each); // a count larger than the blob fails at the first missing item
    if (n * each > 1e9) throw new WkbProblem('the geometry blob is truncated');
    return n;
  };
  const positions = (): number[][] => {
    const n = count(size * 8);
    const list: number[][] = [];
    for (let i = 0; i < n; i++) list.push(position());
    return list;
  };
  const rings = (): number[][][] => {
    const n = count(4);
    const list: number[][][] = [];
    for (let i = 0; i < n; i++) list.push(positions());
    return list;
  };
  const parts = (): RawGeometry[] => {
    const n = count(5);
    const list: RawGeometry[] = [];
    for (let i = 0; i < n; i++) list.push(readGeometry(reader, depth + 1));
    return list;
  };
  switch (type) {
    case 1: {
      const point = position();
      // An empty point is written as NaN coordinates.
      return Number.isNaN(point[0]) && Number.isNaN(point[1]) ? { type: 'Point', coordinates: [] } : { type: 'Point', coordinates: point };
    }
    case 2:
      return { type: 'LineString', coordinates: positions() };
    case 3:
      return { type: 'Polygon', coordinates: rings() };
    case 4:
      return { type: 'MultiPoint', coordinates: parts().map((part) => part.coordinates) };
    case 5:
      return { type: 'MultiLineString', coordinates: parts().map((part) => part.coordinates) };
    case 6:
      return { type: 'MultiPolygon', coordinates: parts().map((part) => part.coordinates) };
    case 7:
      return { type: 'GeometryCollection', geometries: parts() };
    default:
      throw new WkbProblem(`a ${TYPE_NAMES[type] ?? `WKB type ${type}`} geometry cannot be imported`);
  }
}

/** A WKB geometry. Throws WkbProblem. */
export function readWkb(bytes: Uint8Array): RawGeometry {
  return readGeometry(new Reader(bytes), 0);
}

const ENVELOPE_BYTES = [0, 32, 48, 48, 64];

/** A GeoPackage geometry blob: null when the blob says the geometry is empty. Throws WkbProblem. */
export function readGeoPackageGeometry(blob: Uint8Array): RawGeometry | null {
  if (blob.length < 8 || blob[0] !== 0x47 || blob[1] !== 0x50) throw new WkbProblem('the geometry is not a GeoPackage geometry blob');
  const flags = blob[3] as number;
  const envelope = ENVELOPE_BYTES[(flags >> 1) & 7];
  if (envelope === undefined) throw new WkbProblem('the geometry blob has an invalid envelope flag');
  if ((flags & 0x10) !== 0) return null;
  if ((flags & 0x20) !== 0) throw new WkbProblem('the geometry is in an extended GeoPackage geometry encoding, which cannot be imported');
  const start = 8 + envelope;
  if (start > blob.length) throw new WkbProblem('the geometry blob is truncated');
  return readWkb(blob.subarray(start));
}
