// What a static image shows of a map: its visible features, projected once to world units
// (mercator.ts) and styled (lib/featureStyle.ts; text labels as lib/textLabels.ts says, apart
// from the points), with the bounds that frame them. Features are
// added one at a time as they are read, so a 100,000-feature map never exists as one document.
import { featureColor, featureTitle, isVisible, markerId, markerSymbol, strokeWidth } from '../featureStyle.js';
import { hasTextLabel, textLabelColor, textOfLabel, textSize } from '../textLabels.js';
import { LARGE_FEATURE_BYTES, readLargeFeature, type LargeFeature } from './largeFeature.js';
import { worldX, worldY, type WorldBounds } from './mercator.js';
import type { SceneOverlay } from './overlays.js';
import { isOverlay, overlayOpacity } from '../geojson/overlay.js';

export interface ScenePoint {
  x: number;
  y: number;
  color: string;
  symbol?: string;
  markerId?: string;
  title?: string;
}

/** A text label (lib/textLabels.ts): its text centred on its point, in its colour and size. */
export interface SceneText {
  x: number;
  y: number;
  text: string;
  color: string;
  size: number;
}

export interface ScenePath {
  /** x, y pairs in world units; a polygon has one per ring, outer ring first. */
  parts: Float64Array[];
  color: string;
  width: number;
  title?: string;
  /** The bounds of all its parts in world units (a path off the image is not drawn). */
  box: WorldBounds;
}

type Position = number[];
type Properties = Record<string, unknown> | null | undefined;

const isPosition = (value: unknown): value is Position =>
  Array.isArray(value) && value.length >= 2 && Number.isFinite(value[0]) && Number.isFinite(value[1]);

function growBox(box: WorldBounds, part: Float64Array): void {
  for (let i = 0; i < part.length; i += 2) {
    const x = part[i]!;
    const y = part[i + 1]!;
    if (x < box[0]) box[0] = x;
    if (y < box[1]) box[1] = y;
    if (x > box[2]) box[2] = x;
    if (y > box[3]) box[3] = y;
  }
}

export class Scene {
  readonly points: ScenePoint[] = [];
  readonly lines: ScenePath[] = [];
  readonly polygons: ScenePath[] = [];
  readonly texts: SceneText[] = [];
  /** Image overlays (./overlays.ts), drawn under everything else. */
  readonly overlays: SceneOverlay[] = [];
  private minX = Infinity;
  private minY = Infinity;
  private maxX = -Infinity;
  private maxY = -Infinity;

  /** The bounds of everything added, or null for an empty scene. */
  get bounds(): WorldBounds | null {
    return this.minX === Infinity ? null : [this.minX, this.minY, this.maxX, this.maxY];
  }

  get size(): number {
    return this.points.length + this.lines.length + this.polygons.length + this.texts.length + this.overlays.length;
  }

  /** Adds a feature from its stored JSON text (a large one without building its coordinates as arrays). */
  addFeatureText(text: string): void {
    const large = text.length > LARGE_FEATURE_BYTES ? readLargeFeature(text) : null;
    if (large) this.addLargeFeature(large);
    else this.addFeature(JSON.parse(text));
  }

  private addLargeFeature({ type, coordinates, properties }: LargeFeature): void {
    if (!isVisible(properties)) return;
    const lonLat = new Float64Array(2);
    if (type === 'Point') {
      coordinates.readLonLat(0, lonLat, 0);
      return this.addPoint([lonLat[0]!, lonLat[1]!], properties, hasTextLabel(properties));
    }
    const polygons = type === 'Polygon' || type === 'MultiPolygon';
    let path: ScenePath | null = null;
    coordinates.forEachList((first, count, startsPolygon) => {
      if (type === 'MultiPoint') {
        for (let i = 0; i < count; i++) {
          coordinates.readLonLat(first + i, lonLat, 0);
          this.addPoint([lonLat[0]!, lonLat[1]!], properties);
        }
        return;
      }
      if (count < 2) return;
      const part = new Float64Array(count * 2);
      for (let i = 0; i < count; i++) {
        coordinates.readLonLat(first + i, lonLat, 0);
        const x = worldX(lonLat[0]!);
        const y = worldY(lonLat[1]!);
        part[2 * i] = x;
        part[2 * i + 1] = y;
        this.extend(x, y);
      }
      // A new path for each line, and for each polygon (its rings are the parts of one path).
      if (path === null || !polygons || (type === 'MultiPolygon' && startsPolygon)) {
        path = { parts: [], color: featureColor(properties), width: strokeWidth(properties, polygons), box: [Infinity, Infinity, -Infinity, -Infinity] };
        const title = featureTitle(properties);
        if (title) path.title = title;
        (polygons ? this.polygons : this.lines).push(path);
      }
      path.parts.push(part);
      growBox(path.box, part);
    });
  }

  /** Adds a GeoJSON feature (parsed); hidden features and unknown geometries are skipped. */
  addFeature(feature: unknown): void {
    if (typeof feature !== 'object' || feature === null) return;
    const { geometry, properties } = feature as { geometry?: unknown; properties?: Properties };
    if (!isVisible(properties)) return;
    if (isOverlay(properties) && this.addOverlay(geometry, properties as Record<string, unknown>)) return;
    this.addGeometry(geometry, properties);
  }

  /** An image overlay: its four corners and image (false when they are not there: drawn as its polygon). */
  private addOverlay(geometry: unknown, properties: Record<string, unknown>): boolean {
    const image = properties.image as { id?: unknown } | undefined;
    const ring = (geometry as { type?: unknown; coordinates?: unknown[][] } | null)?.coordinates?.[0];
    if (typeof image?.id !== 'string' || (geometry as { type?: unknown }).type !== 'Polygon' || !Array.isArray(ring) || ring.length !== 5) return false;
    const corners = new Float64Array(8);
    for (let i = 0; i < 4; i++) {
      const position = ring[i];
      if (!isPosition(position)) return false;
      corners[2 * i] = worldX(position[0]!);
      corners[2 * i + 1] = worldY(position[1]!);
    }
    const box: WorldBounds = [Infinity, Infinity, -Infinity, -Infinity];
    growBox(box, corners);
    for (let i = 0; i < 8; i += 2) this.extend(corners[i]!, corners[i + 1]!);
    this.overlays.push({ imageId: image.id, corners, opacity: overlayOpacity(properties), box });
    return true;
  }

  private addGeometry(geometry: unknown, properties: Properties): void {
    if (typeof geometry !== 'object' || geometry === null) return;
    const { type, coordinates, geometries } = geometry as { type?: string; coordinates?: unknown; geometries?: unknown };
    const list = Array.isArray(coordinates) ? (coordinates as unknown[]) : [];
    switch (type) {
      case 'Point':
        return this.addPoint(coordinates, properties, hasTextLabel(properties));
      case 'MultiPoint':
        return list.forEach((position) => this.addPoint(position, properties));
      case 'LineString':
        return this.addPath(this.lines, [list], properties, false);
      case 'MultiLineString':
        return list.forEach((line) => this.addPath(this.lines, [line], properties, false));
      case 'Polygon':
        return this.addPath(this.polygons, list, properties, true);
      case 'MultiPolygon':
        return list.forEach((polygon) => this.addPath(this.polygons, Array.isArray(polygon) ? polygon : [], properties, true));
      case 'GeometryCollection':
        if (Array.isArray(geometries)) geometries.forEach((part) => this.addGeometry(part, properties));
        return;
      default:
        return;
    }
  }

  private addPoint(position: unknown, properties: Properties, textLabel = false): void {
    if (!isPosition(position)) return;
    const x = worldX(position[0]!);
    const y = worldY(position[1]!);
    this.extend(x, y);
    if (textLabel) {
      // A label with no text yet shows nothing, but still counts in the framing.
      const text = textOfLabel(properties);
      if (text) this.texts.push({ x, y, text, color: textLabelColor(properties), size: textSize(properties) });
      return;
    }
    const point: ScenePoint = { x, y, color: featureColor(properties) };
    const symbol = markerSymbol(properties);
    const custom = markerId(properties);
    const title = featureTitle(properties);
    if (symbol) point.symbol = symbol;
    if (custom) point.markerId = custom;
    if (title) point.title = title;
    this.points.push(point);
  }

  private addPath(into: ScenePath[], lines: unknown[], properties: Properties, polygon: boolean): void {
    const parts: Float64Array[] = [];
    for (const line of lines) {
      if (!Array.isArray(line)) continue;
      const part = new Float64Array(line.length * 2);
      let count = 0;
      for (const position of line) {
        if (!isPosition(position)) continue;
        const x = worldX(position[0]!);
        const y = worldY(position[1]!);
        part[count++] = x;
        part[count++] = y;
        this.extend(x, y);
      }
      if (count >= 4) parts.push(count === part.length ? part : part.slice(0, count));
    }
    if (parts.length === 0) return;
    const path: ScenePath = { parts, color: featureColor(properties), width: strokeWidth(properties, polygon), box: [Infinity, Infinity, -Infinity, -Infinity] };
    for (const part of parts) growBox(path.box, part);
    const title = featureTitle(properties);
    if (title) path.title = title;
    into.push(path);
  }

  private extend(x: number, y: number): void {
    if (x < this.minX) this.minX = x;
    if (x > this.maxX) this.maxX = x;
    if (y < this.minY) this.minY = y;
    if (y > this.maxY) this.maxY = y;
  }
}
