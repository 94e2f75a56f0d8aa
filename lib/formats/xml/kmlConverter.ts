// KML text → map document, in one streaming pass (no DOM). Used by the KML parser and, with
// a media resolver for files inside the archive, by the KMZ parser.
//
// Conversion:
// - Placemarks of every geometry (./kmlGeometry.ts): Point, LineString, LinearRing (→ a closed
//   LineString), Polygon with inner rings, MultiGeometry (→ Multi* when all parts are of one
//   kind, else a GeometryCollection), gx:Track / gx:MultiTrack (→ LineString / MultiLineString,
//   `when` times in `times`; a track of one position → a Point, its `when` → `time`). Google
//   Timeline exports put an empty <Point> beside their gx:Track: empty geometries add nothing.
//   Altitude is kept as a third coordinate; a tuple of more numbers keeps the first three, said
//   once in the import report. Rings that are not closed
//   are closed; a placemark with any invalid geometry is skipped with the reason and its line.
// - name → title, description → description (text kept as is: it is inert data here; the
//   escaped text of this service's own download unescaped, ../kmlDescriptions.ts),
//   visibility 0 (of the placemark or an enclosing Folder/Document) → visible: false,
//   TimeStamp → time, TimeSpan → begin/end, ExtendedData Data/SimpleData → properties (never
//   replacing the properties set here), gx:SimpleArrayData → lists.
// - Styles (./kmlStyles.ts): inline, shared and StyleMaps → `color`, `stroke-width`, and in a
//   KMZ `marker_id`; a point with IconStyle scale 0 → a text label (`text_label`, `text_size`);
//   the first <img> of a description that names a file of the KMZ → `image` (./kmlImages.ts).
// - Folders → groups (title = Folder name or "Folder"); nested Folders → `parent`. The
//   Document is not a group.
// - GroundOverlays → image overlay items (./kmlGroundOverlay.ts): in a KMZ, their image file is
//   stored as an image; one whose image is an address or not in the archive is skipped with a
//   note. Screen and photo overlays are not imported.
// - NetworkLinks, overlays and every href are never fetched.
import { AppError } from '../../errors.js';
import { shorten } from '../../geojson/json-data.js';
import { MAX_FEATURES, type MapDocument, type MapFeature, type MapGroup } from '../../geojson/model.js';
import type { SkippedItem } from '../skipped.js';
import { plural, SkipList } from '../skipped.js';
import { FeatureList, type FeatureSink } from '../types.js';
import { buildGeometry, KmlGeometryReader, partsKind, partTimes, type GeometryTarget } from './kmlGeometry.js';
import { DESCRIPTION_FORMAT, unescapedDescription } from '../kmlDescriptions.js';
import { descriptionImage } from './kmlImages.js';
import { GROUND_OVERLAY_TEXTS, GroundOverlayReader, type GroundOverlayResult } from './kmlGroundOverlay.js';
import { KmlStyles, type StyleData, type StyledFeature } from './kmlStyles.js';
import { setDataProperty } from './properties.js';
import { readXml, type XmlHandler } from './sax.js';

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

interface PlacemarkState extends GeometryTarget {
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
}

interface Container {
  /** The group items inside belong to (the nearest enclosing Folder's), if any. */
  groupId: number | undefined;
  /** The Folder's own group (undefined for a Document). */
  group: MapGroup | undefined;
  hidden: boolean;
}

/** `placemark "Name"` or `placemark` for messages. */
function placemarkLabel(state: PlacemarkState): string {
  if (state.title === undefined) return 'placemark';
  return `placemark ${JSON.stringify(shorten(state.title, 60))}`;
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
  private readonly styles = new KmlStyles();
  private readonly geometry = new KmlGeometryReader();
  private readonly groundOverlay = new GroundOverlayReader();
  /**
   * Features waiting for a style that is not defined yet (styles may follow their use); once
   * one waits, every later feature waits behind it, so the features keep the file's order.
   */
  private readonly held: { feature: MapFeature; styled?: StyledFeature }[] = [];

  private placemark: PlacemarkState | null = null;

  // ExtendedData being read.
  private dataName: string | undefined;
  /** The file is this service's download, whose descriptions are escaped text (../kmlDescriptions.ts). */
  private escapedDescriptions = false;
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
      case 'StyleMap':
      case 'Pair':
        this.styles.open(name, attributes, depth);
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
      case 'LinearRing':
      case 'Polygon':
      case 'outerBoundaryIs':
      case 'innerBoundaryIs':
      case 'Track':
        this.geometry.open(name, this.placemark);
        return;
      case 'Model':
        if (this.placemark !== null) this.placemark.problem ??= 'a 3D model, which cannot be imported';
        return;
      case 'NetworkLink':
        this.networkLinks++;
        return;
      case 'GroundOverlay':
        this.groundOverlay.open(line, depth);
        return;
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
      case 'scale':
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
        if (this.groundOverlay.reading && GROUND_OVERLAY_TEXTS.has(name)) this.startCapture(depth);
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
      case 'GroundOverlay': {
        const media = this.media;
        const result = this.groundOverlay.close(depth, media === undefined ? undefined : (href) => media.image(href));
        if (result !== undefined) this.finishGroundOverlay(result);
        return;
      }
      case 'Folder':
      case 'Document':
        this.containers.pop();
        return;
      case 'Style':
      case 'StyleMap':
      case 'Pair': {
        const own = this.styles.close(name, depth, path[depth - 2]);
        if (own !== undefined && this.placemark !== null) this.placemark.style = own;
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
      case 'LinearRing':
      case 'Polygon':
      case 'outerBoundaryIs':
      case 'innerBoundaryIs':
      case 'Track':
        this.geometry.close(name, this.placemark);
        return;
      default:
        return;
    }
  }

  private closeText(name: string, raw: string, parent: string | undefined, grandparent: string | undefined): void {
    const placemark = this.placemark;
    if (this.groundOverlay.text(name, raw, parent, grandparent)) return;
    if (this.styles.text(name, raw, parent, grandparent)) return;
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
          if (description !== '') placemark.description = this.escapedDescriptions ? unescapedDescription(description) : description;
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
        if (url !== '' && parent === 'Placemark' && placemark !== null) placemark.styleUrl = url;
        return;
      }
      case 'value':
        if (parent === 'Data') {
          if (placemark !== null && this.dataName !== undefined) (placemark.data ??= []).push(this.dataName, raw.trim());
          // This service's own download: its descriptions are escaped text (../kmlDescriptions.ts).
          else if (placemark === null && this.dataName === DESCRIPTION_FORMAT.name && raw.trim() === DESCRIPTION_FORMAT.value) this.escapedDescriptions = true;
        } else if (parent === 'SimpleArrayData' && this.arrayData !== null) {
          this.arrayData.values.push(raw.trim());
        }
        return;
      case 'SimpleData':
        if (placemark !== null && this.dataName !== undefined) (placemark.data ??= []).push(this.dataName, raw.trim());
        return;
      case 'coordinates':
        if (placemark !== null) this.geometry.coordinates(placemark, raw, parent);
        return;
      case 'when':
        if (parent === 'Track') this.geometry.trackTime(raw);
        else if (parent === 'TimeStamp' && grandparent === 'Placemark' && placemark !== null) placemark.time = raw.trim();
        return;
      case 'coord':
        if (parent === 'Track' && placemark !== null) this.geometry.trackPosition(placemark, raw);
        return;
      case 'begin':
      case 'end':
        if (parent === 'TimeSpan' && grandparent === 'Placemark' && placemark !== null) placemark[name] = raw.trim();
        return;
      default:
        return;
    }
  }

  private finishPlacemark(): void {
    const state = this.placemark as PlacemarkState;
    this.placemark = null;
    this.dataName = undefined;
    if (this.geometry.tuples.longTuples > 0) this.geometry.firstLongTupleLine ??= state.line;
    if (state.problem !== undefined) {
      this.skips.add(`${placemarkLabel(state)}: ${state.problem}`, state.line);
      return;
    }
    if (state.parts.length === 0) {
      this.skips.add(`${placemarkLabel(state)}: ${state.empty ?? 'no geometry with coordinates'}`, state.line);
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
    else {
      const trackTime = state.parts.length === 1 ? state.parts[0]?.time : undefined;
      if (trackTime !== undefined) properties.time = trackTime;
    }
    if (state.begin !== undefined) properties.begin = state.begin;
    if (state.end !== undefined) properties.end = state.end;
    const times = partTimes(state.parts);
    if (times !== undefined) properties.times = times;

    const media = this.media;
    if (media !== undefined && state.description !== undefined) {
      const image = descriptionImage(state.description, (src) => media.image(src));
      if (image !== undefined) properties.image = { id: image };
    }

    const kind = partsKind(state.parts);
    const feature: MapFeature = { type: 'Feature', id: this.featureCount + 1, geometry: buildGeometry(state.parts), properties };
    const styled = state.styleUrl !== undefined || state.style !== undefined ? { properties, url: state.styleUrl, style: state.style, kind } : undefined;
    if (this.held.length === 0 && (styled === undefined || this.styles.isResolvable(styled.url))) {
      if (styled !== undefined) this.applyStyle(styled);
      this.sink.add(feature);
    } else {
      this.held.push({ feature, styled });
    }
  }

  /** An image overlay item from a GroundOverlay, or the note on why it was skipped. */
  private finishGroundOverlay(result: GroundOverlayResult): void {
    if ('skip' in result) {
      this.skips.add(result.skip, result.line);
      return;
    }
    if (this.featureCount >= MAX_FEATURES) {
      throw new AppError('too_many_features', `the KML file holds more than ${MAX_FEATURES} placemarks; a map holds at most ${MAX_FEATURES} items`);
    }
    const properties = result.properties;
    if (this.escapedDescriptions && typeof properties.description === 'string') properties.description = unescapedDescription(properties.description);
    const container = this.containers[this.containers.length - 1];
    if (container?.groupId !== undefined) properties.group = container.groupId;
    let hidden = result.hidden;
    for (const each of this.containers) if (each.hidden) hidden = true;
    if (hidden) properties.visible = false;
    const feature: MapFeature = { type: 'Feature', id: this.featureCount + 1, geometry: result.geometry, properties };
    if (this.held.length === 0) this.sink.add(feature);
    else this.held.push({ feature });
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
    const media = this.media;
    this.styles.apply(item, media === undefined ? undefined : (href) => media.marker(href));
  }

  /** The import report's note on positions of more than three numbers, if any. */
  longTupleNote(): void {
    const count = this.geometry.tuples.longTuples;
    if (count === 0) return;
    this.skips.add(
      `${plural(count, 'position')} had more than 3 numbers; longitude, latitude and altitude were kept and the other numbers ignored`,
      this.geometry.firstLongTupleLine,
    );
  }

  /** Why nothing could be imported, for the no_features error. */
  nothingFoundMessage(): string {
    if (this.placemarkCount > 0) {
      return `none of the ${plural(this.placemarkCount, 'placemark')} in the KML file has usable coordinates${this.skips.example()}`;
    }
    if (this.skips.count > 0) return `nothing in the KML file could be imported${this.skips.example()}`;
    const found: string[] = [];
    if (this.networkLinks > 0) found.push(`${plural(this.networkLinks, 'NetworkLink')} (links to other files, which are never fetched)`);
    if (this.overlays > 0) found.push(`${plural(this.overlays, 'screen or photo overlay')}, which cannot be imported`);
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
  handler.longTupleNote();
  return {
    document: { type: 'FeatureCollection', features: list?.features ?? [], groups: handler.groups },
    skipped: handler.skips.result(),
    name: handler.documentName,
  };
}
