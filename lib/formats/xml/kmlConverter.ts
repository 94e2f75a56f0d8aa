// KML text → map document, in one streaming pass (no DOM). Used by the KML parser and, with
// a media resolver for files inside the archive, by the KMZ parser.
//
// Conversion:
// - Placemarks of every geometry: Point, LineString, LinearRing (→ a closed LineString),
//   Polygon with inner rings, MultiGeometry (→ Multi* when all parts are of one kind, else a
//   GeometryCollection), gx:Track / gx:MultiTrack (→ LineString / MultiLineString, `when`
//   times in `times`). Altitude is kept as a third coordinate. Rings that are not closed are
//   closed; a placemark with any invalid geometry is skipped with the reason and its line.
// - name → title, description → description (text kept as is: it is inert data here),
//   visibility 0 (of the placemark or an enclosing Folder/Document) → visible: false,
//   TimeStamp → time, TimeSpan → begin/end, ExtendedData Data/SimpleData → properties (never
//   replacing the properties set here), gx:SimpleArrayData → lists.
// - Styles: inline, shared (<Style id> through styleUrl "#id", also defined after use) and
//   StyleMaps (the "normal" pair, followed through up to 8 links) → `color` (#rrggbb) from
//   IconStyle (points), LineStyle (lines), PolyStyle or else LineStyle (polygons), and
//   `stroke-width` from LineStyle width (lines and polygons).
// - Folders → groups (title = Folder name or "Folder"); nested Folders → `parent`. The
//   Document is not a group.
// - NetworkLinks, overlays and every href are never fetched.
import { AppError } from '../../errors.js';
import { MAX_FEATURES, type Geometry, type MapDocument, type MapFeature, type MapGroup, type Position } from '../../geojson/model.js';
import type { SkippedItem } from '../skipped.js';
import { kmlColorToHex } from './color.js';
import { parseNumber } from './numbers.js';
import { CompactCoordinates } from '../compactCoordinates.js';
import { closeRing, parseCoordinateList, parseSpacedPosition, readCoordinateTuples } from './positions.js';
import { setDataProperty } from './properties.js';
import { shorten } from '../../geojson/json-data.js';
import { readXml, type XmlHandler } from './sax.js';
import { plural, SkipList } from '../skipped.js';
import { FeatureList, type FeatureSink } from '../types.js';

/** Finds files inside a KMZ archive; answers a media placeholder id, or undefined. */
export interface KmlMediaResolver {
  /** An IconStyle icon href → the placeholder for `properties.marker_id`. */
  marker(href: string): string | undefined;
  /** An <img src> of a description → the placeholder for `properties.image.id`. */
  image(src: string): string | undefined;
}

export interface KmlConversion {
  document: MapDocument;
  skipped: SkippedItem[];
  /** The name of the first Document. */
  name?: string;
}

/** Properties this converter sets; ExtendedData never replaces them. */
const RESERVED_PROPERTIES: ReadonlySet<string> = new Set([
  'title',
  'description',
  'group',
  'color',
  'stroke-width',
  'visible',
  'marker_id',
  'image',
  'time',
  'times',
  'begin',
  'end',
]);

const MAX_STYLE_LINKS = 8;

interface StyleData {
  iconColor?: string;
  iconHref?: string;
  lineColor?: string;
  lineWidth?: number;
  polyColor?: string;
}

interface StyleMapData {
  normalUrl?: string;
  normalStyle?: StyleData;
}

interface PairData {
  key?: string;
  url?: string;
  style?: StyleData;
}

const POINT = 0;
const LINE = 1;
const POLYGON = 2;

interface Part {
  kind: typeof POINT | typeof LINE | typeof POLYGON;
  /** A long line's positions are kept compactly (CompactCoordinates), not as arrays. */
  coordinates: Position | Position[] | Position[][] | CompactCoordinates;
  times?: string[];
}

/** Coordinate texts longer than this (about 40,000 positions) become CompactCoordinates. */
const LONG_COORDINATES = 1024 * 1024;

interface PlacemarkState {
  line: number;
  depth: number;
  title?: string;
  description?: string;
  hidden: boolean;
  styleUrl?: string;
  style?: StyleData;
  /** ExtendedData as alternating keys and values. */
  data?: unknown[];
  time?: string;
  begin?: string;
  end?: string;
  parts: Part[];
  problem?: string;
}

interface Container {
  /** The group items inside belong to (the nearest enclosing Folder's), if any. */
  groupId: number | undefined;
  /** The Folder's own group (undefined for a Document). */
  group: MapGroup | undefined;
  hidden: boolean;
}

interface StyledFeature {
  properties: Record<string, unknown>;
  url: string | undefined;
  style: StyleData | undefined;
  kind: number;
}

/** `placemark "Name"` or `placemark` for messages. */
function placemarkLabel(state: PlacemarkState): string {
  if (state.title === undefined) return 'placemark';
  return `placemark ${JSON.stringify(shorten(state.title, 60))}`;
}

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

function buildGeometry(parts: Part[]): Geometry {
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
function partTimes(parts: Part[]): string[] | string[][] | undefined {
  for (const part of parts) if (part.kind !== LINE || part.times === undefined) return undefined;
  if (parts.length === 1) return (parts[0] as Part).times;
  return parts.map((part) => part.times as string[]);
}

/** The src attribute inside one HTML start tag (the tag's text only, so the match stays linear). */
const SRC_ATTRIBUTE = /\ssrc\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>"']+))/i;
/** Most <img> tags of one description that are looked at. */
const MAX_IMG_TAGS = 100;

/** Minimal HTML attribute unescaping for file names in <img src>. */
function unescapeAttribute(value: string): string {
  if (value.indexOf('&') === -1) return value;
  return value
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&apos;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

class KmlHandler implements XmlHandler {
  /** The name of the first Document, a title for a new map. */
  documentName: string | undefined;
  readonly groups: MapGroup[] = [];
  readonly skips = new SkipList();
  placemarkCount = 0;
  networkLinks = 0;
  overlays = 0;

  private readonly containers: Container[] = [];
  private readonly styles = new Map<string, StyleData>();
  private readonly styleMaps = new Map<string, StyleMapData>();
  /**
   * Features waiting for a style that is not defined yet (styles may follow their use); once
   * one waits, every later feature waits behind it, so the features keep the file's order.
   */
  private readonly resolved = new Map<string, StyleData | undefined>();
  private readonly held: { feature: MapFeature; styled?: StyledFeature }[] = [];

  private placemark: PlacemarkState | null = null;

  // Styles being read.
  private style: StyleData | null = null;
  private styleDepth = 0;
  private styleId: string | undefined;
  private styleMap: StyleMapData | null = null;
  private styleMapId: string | undefined;
  private pair: PairData | null = null;

  // Geometry being read.
  private polygon: { outer: Position[] | undefined; inner: Position[][] } | null = null;
  private ringRole = 0; // 1 outer, 2 inner
  private track: { coords: Position[]; times: string[] } | null = null;
  private partsAtOpen = 0;

  // ExtendedData being read.
  private dataName: string | undefined;
  private arrayData: { name: string; values: string[] } | null = null;

  // Text being collected.
  private captureDepth = 0;
  private buffer = '';

  constructor(
    readonly sink: FeatureSink,
    private readonly media: KmlMediaResolver | undefined,
  ) {}

  /** Placemarks converted so far (sent on or held). */
  get featureCount(): number {
    return this.sink.count + this.held.length;
  }

  private startCapture(depth: number): void {
    this.captureDepth = depth;
    this.buffer = '';
  }

  open(name: string, attributes: Readonly<Record<string, string>>, depth: number, line: number): void {
    switch (name) {
      case 'Placemark':
        this.placemarkCount++;
        if (this.placemark === null) {
          this.placemark = { line, depth, hidden: false, parts: [] };
        }
        return;
      case 'Folder': {
        const parent = this.containers[this.containers.length - 1]?.groupId;
        const id = this.groups.length + 1;
        const group: MapGroup = { id, title: 'Folder' };
        if (parent !== undefined) group.parent = parent;
        this.groups.push(group);
        this.containers.push({ groupId: id, group, hidden: false });
        return;
      }
      case 'Document':
        this.containers.push({
          groupId: this.containers[this.containers.length - 1]?.groupId,
          group: undefined,
          hidden: false,
        });
        return;
      case 'Style':
        if (this.style === null) {
          this.style = {};
          this.styleDepth = depth;
          this.styleId = attributes.id;
        }
        return;
      case 'StyleMap':
        this.styleMap = {};
        this.styleMapId = attributes.id;
        return;
      case 'Pair':
        if (this.styleMap !== null) this.pair = {};
        return;
      case 'Data':
        this.dataName = attributes.name;
        return;
      case 'SimpleData':
        this.dataName = attributes.name;
        this.startCapture(depth);
        return;
      case 'SimpleArrayData':
        this.arrayData = attributes.name === undefined ? null : { name: attributes.name, values: [] };
        return;
      case 'Point':
      case 'LineString':
        this.partsAtOpen = this.placemark?.parts.length ?? 0;
        return;
      case 'LinearRing':
        if (this.polygon === null) this.partsAtOpen = this.placemark?.parts.length ?? 0;
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
      case 'Model':
        if (this.placemark !== null) this.placemark.problem ??= 'a 3D model, which cannot be imported';
        return;
      case 'NetworkLink':
        this.networkLinks++;
        return;
      case 'GroundOverlay':
      case 'ScreenOverlay':
      case 'PhotoOverlay':
        this.overlays++;
        return;
      case 'name':
      case 'description':
      case 'visibility':
      case 'styleUrl':
      case 'key':
      case 'color':
      case 'width':
      case 'href':
      case 'value':
      case 'coordinates':
      case 'when':
      case 'coord':
      case 'begin':
      case 'end':
        this.startCapture(depth);
        return;
      default:
        return;
    }
  }

  text(text: string): void {
    if (this.captureDepth !== 0) this.buffer += text;
  }

  close(name: string, depth: number, path: readonly string[]): void {
    if (depth === this.captureDepth) {
      const text = this.buffer;
      this.captureDepth = 0;
      this.buffer = '';
      this.closeText(name, text, path[depth - 2], path[depth - 3]);
      return;
    }
    switch (name) {
      case 'Placemark':
        if (this.placemark !== null && this.placemark.depth === depth) this.finishPlacemark();
        return;
      case 'Folder':
      case 'Document':
        this.containers.pop();
        return;
      case 'Style':
        if (this.style !== null && depth === this.styleDepth) this.finishStyle(path[depth - 2]);
        return;
      case 'StyleMap':
        if (this.styleMap !== null && this.styleMapId !== undefined) this.styleMaps.set(this.styleMapId, this.styleMap);
        this.styleMap = null;
        return;
      case 'Pair': {
        const pair = this.pair;
        this.pair = null;
        if (pair !== null && this.styleMap !== null && pair.key?.trim() === 'normal') {
          if (pair.url !== undefined) this.styleMap.normalUrl = pair.url;
          if (pair.style !== undefined) this.styleMap.normalStyle = pair.style;
        }
        return;
      }
      case 'SimpleArrayData': {
        const array = this.arrayData;
        this.arrayData = null;
        if (array !== null && this.placemark !== null) (this.placemark.data ??= []).push(array.name, array.values);
        return;
      }
      case 'Point':
      case 'LineString':
        this.checkGeometryHadCoordinates(name);
        return;
      case 'LinearRing':
        if (this.polygon === null) this.checkGeometryHadCoordinates(name);
        return;
      case 'Polygon':
        this.finishPolygon();
        return;
      case 'outerBoundaryIs':
      case 'innerBoundaryIs':
        this.ringRole = 0;
        return;
      case 'Track':
        this.finishTrack();
        return;
      default:
        return;
    }
  }

  private closeText(name: string, raw: string, parent: string | undefined, grandparent: string | undefined): void {
    const placemark = this.placemark;
    switch (name) {
      case 'name': {
        const title = raw.trim();
        if (title === '') return;
        if (parent === 'Placemark') {
          if (placemark !== null) placemark.title = title;
        } else if (parent === 'Folder') {
          const group = this.containers[this.containers.length - 1]?.group;
          if (group !== undefined) group.title = title;
        } else if (parent === 'Document') {
          // Google Earth names a saved Document after its file: "Trip.kml".
          this.documentName ??= title.replace(/\.km[lz]$/i, '') || title;
        }
        return;
      }
      case 'description':
        if (parent === 'Placemark' && placemark !== null) {
          const description = raw.trim();
          if (description !== '') placemark.description = description;
        }
        return;
      case 'visibility': {
        const value = raw.trim();
        const hidden = value === '0' || value === 'false';
        if (parent === 'Placemark') {
          if (placemark !== null) placemark.hidden = hidden;
        } else if (parent === 'Folder' || parent === 'Document') {
          const container = this.containers[this.containers.length - 1];
          if (container !== undefined) container.hidden = hidden;
        }
        return;
      }
      case 'styleUrl': {
        const url = raw.trim();
        if (url === '') return;
        if (parent === 'Placemark') {
          if (placemark !== null) placemark.styleUrl = url;
        } else if (parent === 'Pair' && this.pair !== null) {
          this.pair.url = url;
        }
        return;
      }
      case 'key':
        if (parent === 'Pair' && this.pair !== null) this.pair.key = raw;
        return;
      case 'color': {
        const style = this.style;
        if (style === null) return;
        const color = kmlColorToHex(raw);
        if (color === undefined) return;
        if (parent === 'IconStyle') style.iconColor = color;
        else if (parent === 'LineStyle') style.lineColor = color;
        else if (parent === 'PolyStyle') style.polyColor = color;
        return;
      }
      case 'width':
        if (parent === 'LineStyle' && this.style !== null) {
          const width = parseNumber(raw);
          if (Number.isFinite(width) && width >= 0) this.style.lineWidth = width;
        }
        return;
      case 'href':
        if (parent === 'Icon' && grandparent === 'IconStyle' && this.style !== null) {
          const href = raw.trim();
          if (href !== '') this.style.iconHref = href;
        }
        return;
      case 'value':
        if (parent === 'Data') {
          if (placemark !== null && this.dataName !== undefined) (placemark.data ??= []).push(this.dataName, raw.trim());
        } else if (parent === 'SimpleArrayData' && this.arrayData !== null) {
          this.arrayData.values.push(raw.trim());
        }
        return;
      case 'SimpleData':
        if (placemark !== null && this.dataName !== undefined) (placemark.data ??= []).push(this.dataName, raw.trim());
        return;
      case 'coordinates':
        if (placemark !== null && placemark.problem === undefined) this.readCoordinates(placemark, raw, parent);
        return;
      case 'when':
        if (parent === 'Track') this.track?.times.push(raw.trim());
        else if (parent === 'TimeStamp' && grandparent === 'Placemark' && placemark !== null) placemark.time = raw.trim();
        return;
      case 'coord':
        if (parent === 'Track' && this.track !== null && placemark !== null && placemark.problem === undefined) {
          const position = parseSpacedPosition(raw);
          if (typeof position === 'string') placemark.problem = `track position ${this.track.coords.length + 1}: ${position}`;
          else this.track.coords.push(position);
        }
        return;
      case 'begin':
      case 'end':
        if (parent === 'TimeSpan' && grandparent === 'Placemark' && placemark !== null) placemark[name] = raw.trim();
        return;
      default:
        return;
    }
  }

  private readCoordinates(placemark: PlacemarkState, raw: string, parent: string | undefined): void {
    const geometry = parent ?? 'geometry';
    if (parent !== 'Point' && parent !== 'LineString' && parent !== 'LinearRing') return;
    if (parent === 'LineString' && raw.length > LONG_COORDINATES) {
      this.readLongLine(placemark, raw);
      return;
    }
    const positions = parseCoordinateList(raw);
    if (typeof positions === 'string') {
      placemark.problem = `${geometry} coordinates: ${positions}`;
      return;
    }
    if (parent === 'Point') {
      const position = positions[0];
      if (position === undefined) placemark.problem = 'a Point has no coordinates';
      else placemark.parts.push({ kind: POINT, coordinates: position });
      return;
    }
    if (parent === 'LineString') {
      if (positions.length < 2) {
        placemark.problem = `a LineString has ${plural(positions.length, 'position')}; a line needs at least 2`;
      } else {
        placemark.parts.push({ kind: LINE, coordinates: positions });
      }
      return;
    }
    // LinearRing: a polygon ring, or on its own a closed line.
    const problem = closeRing(positions);
    if (problem !== null) {
      placemark.problem = problem;
      return;
    }
    const polygon = this.polygon;
    if (polygon === null) {
      placemark.parts.push({ kind: LINE, coordinates: positions });
    } else if (this.ringRole === 2) {
      polygon.inner.push(positions);
    } else if (polygon.outer === undefined) {
      polygon.outer = positions;
    } else {
      placemark.problem = 'a Polygon has more than one outer ring';
    }
  }

  /** A long LineString (a recorded track, a detailed route): its positions go into compact storage. */
  private readLongLine(placemark: PlacemarkState, raw: string): void {
    const line = new CompactCoordinates(1);
    line.openList();
    const problem = readCoordinateTuples(raw, (lon, lat, alt) => line.addPosition(lon, lat, alt));
    if (problem !== null) {
      placemark.problem = `LineString coordinates: ${problem}`;
      return;
    }
    const count = line.closeList();
    if (count < 2) placemark.problem = `a LineString has ${plural(count, 'position')}; a line needs at least 2`;
    else placemark.parts.push({ kind: LINE, coordinates: line });
  }

  private checkGeometryHadCoordinates(name: string): void {
    const placemark = this.placemark;
    if (placemark === null || placemark.problem !== undefined) return;
    if (placemark.parts.length === this.partsAtOpen) placemark.problem = `a ${name} has no coordinates`;
  }

  private finishPolygon(): void {
    const polygon = this.polygon;
    this.polygon = null;
    this.ringRole = 0;
    const placemark = this.placemark;
    if (polygon === null || placemark === null || placemark.problem !== undefined) return;
    if (polygon.outer === undefined) {
      placemark.problem = 'a Polygon has no outer ring';
      return;
    }
    placemark.parts.push({ kind: POLYGON, coordinates: [polygon.outer, ...polygon.inner] });
  }

  private finishTrack(): void {
    const track = this.track;
    this.track = null;
    const placemark = this.placemark;
    if (track === null || placemark === null || placemark.problem !== undefined) return;
    if (track.coords.length < 2) {
      placemark.problem = `a track has ${plural(track.coords.length, 'position')}; a line needs at least 2`;
      return;
    }
    const part: Part = { kind: LINE, coordinates: track.coords };
    if (track.times.length === track.coords.length) part.times = track.times;
    placemark.parts.push(part);
  }

  private finishStyle(parent: string | undefined): void {
    const style = this.style as StyleData;
    const id = this.styleId;
    this.style = null;
    this.styleId = undefined;
    if (parent === 'Placemark') {
      if (this.placemark !== null) this.placemark.style = style;
    } else if (parent === 'Pair') {
      if (this.pair !== null) this.pair.style = style;
    } else if (id !== undefined) {
      this.styles.set(id, style);
    }
  }

  private finishPlacemark(): void {
    const state = this.placemark as PlacemarkState;
    this.placemark = null;
    this.dataName = undefined;
    if (state.problem !== undefined) {
      this.skips.add(`${placemarkLabel(state)}: ${state.problem}`, state.line);
      return;
    }
    if (state.parts.length === 0) {
      this.skips.add(`${placemarkLabel(state)}: no geometry with coordinates`, state.line);
      return;
    }
    if (this.featureCount >= MAX_FEATURES) {
      throw new AppError('too_many_features', `the KML file holds more than ${MAX_FEATURES} placemarks; a map holds at most ${MAX_FEATURES} items`);
    }

    const properties: Record<string, unknown> = {};
    if (state.title !== undefined) properties.title = state.title;
    if (state.description !== undefined) properties.description = state.description;
    const data = state.data;
    if (data !== undefined) {
      for (let i = 0; i < data.length; i += 2) setDataProperty(properties, data[i] as string, data[i + 1], RESERVED_PROPERTIES);
    }
    const container = this.containers[this.containers.length - 1];
    if (container?.groupId !== undefined) properties.group = container.groupId;
    let hidden = state.hidden;
    for (const each of this.containers) if (each.hidden) hidden = true;
    if (hidden) properties.visible = false;
    if (state.time !== undefined) properties.time = state.time;
    if (state.begin !== undefined) properties.begin = state.begin;
    if (state.end !== undefined) properties.end = state.end;
    const times = partTimes(state.parts);
    if (times !== undefined) properties.times = times;

    if (this.media !== undefined && state.description !== undefined && /<img/i.test(state.description)) {
      this.attachImage(properties, state.description);
    }

    let kind = POINT;
    for (const part of state.parts) if (part.kind > kind) kind = part.kind;
    const feature: MapFeature = { type: 'Feature', id: this.featureCount + 1, geometry: buildGeometry(state.parts), properties };
    const styled = state.styleUrl !== undefined || state.style !== undefined ? { properties, url: state.styleUrl, style: state.style, kind } : undefined;
    if (this.held.length === 0 && (styled === undefined || this.isResolvable(styled.url, 0))) {
      if (styled !== undefined) this.applyStyle(styled);
      this.sink.add(feature);
    } else {
      this.held.push({ feature, styled });
    }
  }

  private attachImage(properties: Record<string, unknown>, description: string): void {
    const media = this.media as KmlMediaResolver;
    const lower = description.toLowerCase();
    let at = 0;
    for (let tags = 0; tags < MAX_IMG_TAGS; tags++) {
      const start = lower.indexOf('<img', at);
      if (start === -1) return;
      const end = lower.indexOf('>', start);
      if (end === -1) return;
      at = end + 1;
      const match = SRC_ATTRIBUTE.exec(description.slice(start + 4, end));
      if (match === null) continue;
      const src = unescapeAttribute((match[1] ?? match[2] ?? match[3] ?? '').trim());
      if (src === '') continue;
      const id = media.image(src);
      if (id !== undefined) {
        properties.image = { id };
        return;
      }
    }
  }

  /** Sends on the features that waited for styles defined after them (at the end of the file). */
  flushHeld(): void {
    for (const { feature, styled } of this.held) {
      if (styled !== undefined) this.applyStyle(styled);
      this.sink.add(feature);
    }
    this.held.length = 0;
  }

  private applyStyle(item: StyledFeature): void {
    let base: StyleData | undefined;
    if (item.url !== undefined) {
      if (this.resolved.has(item.url)) {
        base = this.resolved.get(item.url);
      } else {
        base = this.resolveUrl(item.url, 0);
        this.resolved.set(item.url, base);
      }
    }
    const style = item.style === undefined ? base : base === undefined ? item.style : { ...base, ...item.style };
    if (style === undefined) return;
    const properties = item.properties;
    const color = item.kind === POINT ? style.iconColor : item.kind === LINE ? style.lineColor : (style.polyColor ?? style.lineColor);
    if (color !== undefined) properties.color = color;
    if (item.kind !== POINT && style.lineWidth !== undefined) properties['stroke-width'] = style.lineWidth;
    if (item.kind === POINT && style.iconHref !== undefined && this.media !== undefined) {
      const marker = this.media.marker(style.iconHref);
      if (marker !== undefined) properties.marker_id = marker;
    }
  }

  /** True when every style the url leads to is defined already (a chain too long counts as done). */
  private isResolvable(url: string | undefined, links: number): boolean {
    if (url === undefined || links > MAX_STYLE_LINKS) return true;
    const hash = url.indexOf('#');
    const id = hash === -1 ? url : url.slice(hash + 1);
    if (this.styles.has(id)) return true;
    const map = this.styleMaps.get(id);
    return map !== undefined && this.isResolvable(map.normalUrl, links + 1);
  }

  private resolveUrl(url: string, links: number): StyleData | undefined {
    if (links > MAX_STYLE_LINKS) return undefined;
    const hash = url.indexOf('#');
    // "#id" (also "file.kml#id": the fragment is looked up here; nothing is ever fetched).
    const id = hash === -1 ? url : url.slice(hash + 1);
    const style = this.styles.get(id);
    if (style !== undefined) return style;
    const map = this.styleMaps.get(id);
    if (map === undefined) return undefined;
    const base = map.normalUrl === undefined ? undefined : this.resolveUrl(map.normalUrl, links + 1);
    if (map.normalStyle === undefined) return base;
    return base === undefined ? map.normalStyle : { ...base, ...map.normalStyle };
  }

  /** Why nothing could be imported, for the no_features error. */
  nothingFoundMessage(): string {
    if (this.placemarkCount > 0) {
      return `none of the ${plural(this.placemarkCount, 'placemark')} in the KML file has usable coordinates${this.skips.example()}`;
    }
    const found: string[] = [];
    if (this.networkLinks > 0) found.push(`${plural(this.networkLinks, 'NetworkLink')} (links to other files, which are never fetched)`);
    if (this.overlays > 0) found.push(`${plural(this.overlays, 'image overlay')}, which cannot be imported`);
    if (found.length === 0) return 'the KML file holds no placemarks';
    return `the KML file holds no placemarks, only ${found.join(' and ')}`;
  }
}

/**
 * Converts KML text into a map document. Throws AppError: invalid_file, doctype_not_allowed,
 * too_deep, no_features, too_many_features.
 */
export function convertKml(text: string | Iterable<string>, media?: KmlMediaResolver, sink?: FeatureSink): KmlConversion {
  const list = sink ? undefined : new FeatureList();
  const handler = new KmlHandler(sink ?? list!, media);
  readXml(text, handler, { roots: ['kml'], what: 'KML file' });
  if (handler.featureCount === 0) throw new AppError('no_features', handler.nothingFoundMessage());
  handler.flushHeld();
  return {
    document: { type: 'FeatureCollection', features: list?.features ?? [], groups: handler.groups },
    skipped: handler.skips.result(),
    name: handler.documentName,
  };
}
