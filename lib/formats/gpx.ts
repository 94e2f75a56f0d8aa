// GPX uploads (file_type "gpx", versions 1.0 and 1.1), converted in one streaming pass:
// - wpt → Point: name → title, desc (else cmt) → description, ele → third coordinate and `ele`,
//   time → `time`, sym, type and the first http(s) link → `sym`, `type`, `url`;
// - rte → LineString (name, desc, type, link; per-point times in `times` when present);
// - trk → one feature: LineString for one segment, MultiLineString for several; per-point
//   times in `times` (a list, or a list per segment; null where a point has none), Garmin's
//   DisplayColor extension → `color`.
// A waypoint with bad coordinates, or a route or track with a point with bad coordinates, is
// skipped with the reason and line; so are routes and tracks with fewer than 2 points (segments
// of one point are left out of a track).
import { AppError } from '../errors.js';
import { MAX_FEATURES, type Geometry, type Position } from '../geojson/model.js';
import { asInput, type ParserInput } from './input.js';
import { FeatureList, type FeatureSink, type FormatParser, type ParseOptions, type ParsedFile } from './types.js';
import { garminColorToHex } from './xml/color.js';
import { decodeXmlChunks } from './xml/decode.js';
import { parseNumber } from './xml/numbers.js';
import { lonLatProblem } from './xml/positions.js';
import { readXml, type XmlHandler } from './xml/sax.js';
import { shorten } from '../geojson/json-data.js';
import { binaryKind } from './xml/sniff.js';
import { plural, SkipList } from './skipped.js';
import { TrackCoordinates, TrackPoints, TrackTimes, type Segment } from './trackPoints.js';

const WAYPOINT = 0;
const ROUTE = 1;
const TRACK = 2;
const KIND_NAMES = ['waypoint', 'route', 'track'] as const;

interface ItemState {
  kind: typeof WAYPOINT | typeof ROUTE | typeof TRACK;
  line: number;
  depth: number;
  title?: string;
  desc?: string;
  cmt?: string;
  type?: string;
  sym?: string;
  url?: string;
  color?: string;
  /** Waypoints: the position. */
  position?: Position;
  ele?: number;
  time?: string;
  /** Routes and tracks: their points, the segments kept, and whether any point has a time. */
  track?: TrackPoints;
  segments: Segment[];
  hasTimes: boolean;
  points: number;
  problem?: string;
}

function itemLabel(item: ItemState): string {
  const kind = KIND_NAMES[item.kind];
  if (item.title === undefined) return kind;
  return `${kind} ${JSON.stringify(shorten(item.title, 60))}`;
}

const isWebLink = (href: string): boolean => /^https?:\/\//i.test(href);

class GpxHandler implements XmlHandler {
  /** The file's own name (metadata name), a title for a new map. */
  fileName: string | undefined;
  private inMetadata = false;
  readonly skips = new SkipList();
  items = 0;
  /** Routes and tracks imported, and the title of the first: a file of one track is named by it. */
  lines = 0;
  firstLineTitle: string | undefined;

  constructor(readonly sink: FeatureSink) {}

  private item: ItemState | null = null;

  // The point (wpt, rtept, trkpt) being read.
  private pointDepth = 0;
  private pointLine = 0;
  private pointLon = 0;
  private pointLat = 0;
  private pointProblem: string | null = null;
  private pointEle = Number.NaN;
  private pointTime: string | undefined;

  // The segment (trkseg, or a route's points) being read: where it starts in the item's points.
  private segmentStart: number | null = null;
  private segmentHasTimes = false;

  private captureDepth = 0;
  private buffer = '';

  private newItem(kind: ItemState['kind'], line: number, depth: number): ItemState {
    this.items++;
    return { kind, line, depth, segments: [], hasTimes: false, points: 0 };
  }

  private startPoint(attributes: Readonly<Record<string, string>>, depth: number, line: number): void {
    this.pointDepth = depth;
    this.pointLine = line;
    this.pointEle = Number.NaN;
    this.pointTime = undefined;
    const lat = attributes.lat;
    const lon = attributes.lon;
    if (lat === undefined || lon === undefined) {
      this.pointProblem = `the point has no ${lat === undefined ? 'lat' : 'lon'} attribute`;
      return;
    }
    this.pointLat = parseNumber(lat);
    this.pointLon = parseNumber(lon);
    this.pointProblem = lonLatProblem(this.pointLon, this.pointLat);
  }

  private startSegment(): void {
    this.segmentStart = this.item?.track?.count ?? 0;
    this.segmentHasTimes = false;
  }

  open(name: string, attributes: Readonly<Record<string, string>>, depth: number, line: number): void {
    switch (name) {
      case 'trkpt':
      case 'rtept':
        if (this.segmentStart !== null && this.pointDepth === 0) this.startPoint(attributes, depth, line);
        return;
      case 'ele':
      case 'time':
        if (this.pointDepth !== 0 && depth === this.pointDepth + 1) this.startCapture(depth);
        return;
      case 'trkseg':
        if (this.item?.kind === TRACK && depth === this.item.depth + 1) this.startSegment();
        return;
      case 'wpt':
        if (depth === 2) {
          this.item = this.newItem(WAYPOINT, line, depth);
          this.startPoint(attributes, depth, line);
        }
        return;
      case 'rte':
        if (depth === 2) {
          this.item = this.newItem(ROUTE, line, depth);
          this.startSegment();
        }
        return;
      case 'trk':
        if (depth === 2) this.item = this.newItem(TRACK, line, depth);
        return;
      case 'link':
        if (this.item !== null && depth === this.item.depth + 1 && this.item.url === undefined) {
          const href = attributes.href?.trim();
          if (href !== undefined && isWebLink(href)) this.item.url = href;
        }
        return;
      case 'metadata':
        if (depth === 2) this.inMetadata = true;
        return;
      case 'name':
      case 'desc':
      case 'cmt':
      case 'type':
      case 'sym':
      case 'url':
        if (this.item !== null && depth === this.item.depth + 1) this.startCapture(depth);
        // The file's own name: <metadata><name> (GPX 1.1) or <gpx><name> (GPX 1.0).
        else if (name === 'name' && this.item === null && (depth === 2 || (depth === 3 && this.inMetadata))) this.startCapture(depth);
        return;
      case 'DisplayColor':
        if (this.item !== null && this.pointDepth === 0) this.startCapture(depth);
        return;
      default:
        return;
    }
  }

  private startCapture(depth: number): void {
    this.captureDepth = depth;
    this.buffer = '';
  }

  text(text: string): void {
    if (this.captureDepth !== 0) this.buffer += text;
  }

  close(name: string, depth: number): void {
    if (depth === this.captureDepth) {
      const text = this.buffer;
      this.captureDepth = 0;
      this.buffer = '';
      this.closeText(name, text);
      return;
    }
    switch (name) {
      case 'trkpt':
      case 'rtept':
        if (depth === this.pointDepth) this.finishPoint();
        return;
      case 'trkseg':
        if (this.segmentStart !== null && this.item?.kind === TRACK) this.finishSegment(this.item);
        return;
      case 'metadata':
        if (depth === 2) this.inMetadata = false;
        return;
      case 'wpt':
      case 'rte':
      case 'trk':
        if (this.item !== null && depth === this.item.depth) {
          if (this.item.kind === WAYPOINT) this.finishPoint();
          this.finishItem(this.item);
        }
        return;
      default:
        return;
    }
  }

  private closeText(name: string, raw: string): void {
    const item = this.item;
    if (item === null) {
      if (name === 'name') this.fileName ??= raw.trim() || undefined;
      return;
    }
    switch (name) {
      case 'ele': {
        const ele = parseNumber(raw);
        if (Number.isFinite(ele)) this.pointEle = ele;
        return;
      }
      case 'time': {
        const time = raw.trim();
        if (time !== '') this.pointTime = time;
        return;
      }
      case 'DisplayColor': {
        const color = garminColorToHex(raw);
        if (color !== undefined) item.color = color;
        return;
      }
      case 'url': {
        const url = raw.trim();
        if (item.url === undefined && isWebLink(url)) item.url = url;
        return;
      }
      default: {
        const value = raw.trim();
        if (value === '') return;
        if (name === 'name') item.title = value;
        else if (name === 'desc') item.desc = value;
        else if (name === 'cmt') item.cmt = value;
        else if (name === 'type') item.type = value;
        else if (name === 'sym') item.sym = value;
      }
    }
  }

  private finishPoint(): void {
    const item = this.item as ItemState;
    this.pointDepth = 0;
    const problem = this.pointProblem;
    const ele = this.pointEle;
    if (item.kind === WAYPOINT) {
      if (problem !== null) item.problem = problem;
      item.position = Number.isNaN(ele) ? [this.pointLon, this.pointLat] : [this.pointLon, this.pointLat, ele];
      if (!Number.isNaN(ele)) item.ele = ele;
      if (this.pointTime !== undefined) item.time = this.pointTime;
      return;
    }
    item.points++;
    if (problem !== null) item.problem ??= `the point on line ${this.pointLine}: ${problem}`;
    if (item.problem !== undefined) return; // the item is skipped: its points need not be kept
    const time = this.pointTime;
    // Made with the first point: a file of many empty or skipped tracks allocates nothing for them.
    item.track ??= new TrackPoints();
    item.track.push(this.pointLon, this.pointLat, ele, time);
    if (time !== undefined) this.segmentHasTimes = true;
  }

  private finishSegment(item: ItemState): void {
    const track = item.track;
    const segment = { start: this.segmentStart as number, end: track?.count ?? 0 };
    this.segmentStart = null;
    if (segment.end - segment.start < 2) {
      track?.truncate(segment.start);
      return;
    }
    item.segments.push(segment);
    if (this.segmentHasTimes) item.hasTimes = true;
  }

  private finishItem(item: ItemState): void {
    this.item = null;
    if (item.kind === ROUTE && this.segmentStart !== null) this.finishSegment(item);
    this.segmentStart = null;
    if (item.problem !== undefined) {
      this.skips.add(`${itemLabel(item)}: ${item.problem}`, item.line);
      return;
    }
    let geometry: Geometry;
    if (item.kind === WAYPOINT) {
      geometry = { type: 'Point', coordinates: item.position as Position };
    } else {
      if (item.segments.length === 0) {
        const reason =
          item.points === 0
            ? 'no points'
            : item.kind === ROUTE
              ? `${plural(item.points, 'point')}; a line needs at least 2`
              : `${plural(item.points, 'point')} but no segment with at least 2`;
        this.skips.add(`${itemLabel(item)}: ${reason}`, item.line);
        return;
      }
      // Coordinates written straight from the points (see trackPoints.ts), typed as the geometry they write.
      const coordinates = new TrackCoordinates(item.track as TrackPoints, item.segments) as unknown;
      geometry =
        item.segments.length === 1
          ? { type: 'LineString', coordinates: coordinates as Position[] }
          : { type: 'MultiLineString', coordinates: coordinates as Position[][] };
    }
    if (this.sink.count >= MAX_FEATURES) {
      throw new AppError('too_many_features', `the GPX file holds more than ${MAX_FEATURES} items; a map holds at most ${MAX_FEATURES}`);
    }

    const properties: Record<string, unknown> = {};
    if (item.title !== undefined) properties.title = item.title;
    const description = item.desc ?? item.cmt;
    if (description !== undefined) properties.description = description;
    if (item.url !== undefined) properties.url = item.url;
    if (item.color !== undefined) properties.color = item.color;
    if (item.type !== undefined) properties.type = item.type;
    if (item.sym !== undefined) properties.sym = item.sym;
    if (item.ele !== undefined) properties.ele = item.ele;
    if (item.time !== undefined) properties.time = item.time;
    if (item.hasTimes) properties.times = new TrackTimes(item.track as TrackPoints, item.segments);

    if (geometry.type !== 'Point' && this.lines++ === 0) this.firstLineTitle = item.title;
    this.sink.add({ type: 'Feature', id: this.sink.count + 1, geometry, properties });
  }

  nothingFoundMessage(): string {
    if (this.items === 0) return 'the GPX file holds no waypoints, routes or tracks';
    return `none of the ${plural(this.items, 'waypoint, route or track')} in the GPX file could be imported${this.skips.example()}`;
  }
}

/**
 * Parses a GPX file. Throws AppError: unsupported_type (a binary format), invalid_file,
 * doctype_not_allowed, too_deep, no_features, too_many_features.
 */
export const parseGpx: FormatParser = (file: ParserInput, options?: ParseOptions): ParsedFile => {
  const input = asInput(file);
  const kind = binaryKind(input.head);
  if (kind !== undefined) throw new AppError('unsupported_type', `the file is ${kind}, not a GPX file`);
  const list = options?.sink ? undefined : new FeatureList();
  const handler = new GpxHandler(options?.sink ?? list!);
  readXml(decodeXmlChunks(input, 'GPX file'), handler, { roots: ['gpx'], what: 'GPX file' });
  if (handler.sink.count === 0) throw new AppError('no_features', handler.nothingFoundMessage());
  return {
    document: { type: 'FeatureCollection', features: list?.features ?? [], groups: [] },
    skipped: handler.skips.result(),
    media: [],
    // Sports apps name the one track of a file ("Morning Run"); that is the file's name too.
    name: handler.fileName ?? (handler.lines === 1 ? handler.firstLineTitle : undefined),
  };
};
