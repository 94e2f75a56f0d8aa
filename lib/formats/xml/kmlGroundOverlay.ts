// KML GroundOverlays → image overlay items (../../geojson/overlay.ts). Read while the KML
// streams by: name, description, visibility, color (its alpha → opacity), Icon/href, LatLonBox
// (north, south, east, west, rotation) and gx:LatLonQuad.
// - A LatLonBox's rotation (degrees, counter-clockwise) turns its corners around the box's
//   centre, on a plane where a degree of longitude is cos(latitude) of a degree of latitude, so
//   the image keeps its shape on the ground.
// - gx:LatLonQuad's four corners (lower-left, lower-right, upper-right, upper-left) are the
//   overlay's corners as they are.
// - The image must be a file inside the KMZ (the resolver stores it as an image); an href that
//   is an address is never fetched: the overlay is skipped with a note, as is one whose image the
//   archive does not hold, or a plain KML's (which has no archive).
import { shorten } from '../../geojson/json-data.js';
import type { Position } from '../../geojson/geometry.js';
import { overlayPolygon, type OverlayCorners } from '../../geojson/overlay.js';
import type { MapFeature } from '../../geojson/model.js';
import { parseNumber } from './numbers.js';

/** Text elements of a GroundOverlay the reader needs captured. */
export const GROUND_OVERLAY_TEXTS: ReadonlySet<string> = new Set(['north', 'south', 'east', 'west', 'rotation']);

interface OverlayState {
  line: number;
  depth: number;
  title?: string;
  description?: string;
  hidden: boolean;
  href?: string;
  color?: string;
  box: Partial<Record<'north' | 'south' | 'east' | 'west' | 'rotation', number>>;
  quad?: string;
}

/** A ground overlay read: the feature's parts, or why it was skipped. */
export type GroundOverlayResult =
  | { geometry: MapFeature['geometry']; properties: Record<string, unknown>; hidden: boolean }
  | { skip: string; line: number };

const looksLikeAddress = (href: string): boolean => /^[A-Za-z][A-Za-z0-9+.-]*:/.test(href) || href.startsWith('//');

/** Corners of a LatLonBox turned by `rotation` degrees (counter-clockwise) around its centre. */
export function latLonBoxCorners(north: number, south: number, east: number, west: number, rotation = 0): OverlayCorners {
  const corners: OverlayCorners = [
    [west, south],
    [east, south],
    [east, north],
    [west, north],
  ];
  if (rotation === 0) return corners;
  const centreLon = (west + east) / 2;
  const centreLat = (north + south) / 2;
  const scale = Math.cos((centreLat * Math.PI) / 180) || 1e-9;
  const angle = (rotation * Math.PI) / 180;
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  const round = (value: number): number => Math.round(value * 1e9) / 1e9;
  return corners.map(([lon, lat]) => {
    const dx = (lon - centreLon) * scale;
    const dy = lat - centreLat;
    return [round(centreLon + (dx * cos - dy * sin) / scale), round(centreLat + dx * sin + dy * cos)] as Position;
  }) as OverlayCorners;
}

/** The four positions of a gx:LatLonQuad's coordinates, or undefined. */
function quadCorners(text: string): OverlayCorners | undefined {
  const tuples = text.trim().split(/\s+/).filter((tuple) => tuple !== '');
  if (tuples.length !== 4 && !(tuples.length === 5 && tuples[4] === tuples[0])) return undefined;
  const corners: Position[] = [];
  for (const tuple of tuples.slice(0, 4)) {
    const [lon, lat] = tuple.split(',').map((part) => parseNumber(part.trim()));
    if (lon === undefined || lat === undefined || !Number.isFinite(lon) || !Number.isFinite(lat)) return undefined;
    corners.push([lon, lat]);
  }
  return corners as OverlayCorners;
}

const onEarth = (corners: OverlayCorners): boolean =>
  corners.every(([lon, lat]) => lon >= -180 && lon <= 180 && lat >= -90 && lat <= 90);

/** KML colour `aabbggrr` → its alpha as an opacity 0..1 (three decimals); undefined when unreadable. */
export function kmlColorOpacity(raw: string): number | undefined {
  const text = raw.trim().replace(/^#|^0x/i, '');
  if (!/^[0-9a-fA-F]{8}$/.test(text)) return undefined;
  return Math.round((parseInt(text.slice(0, 2), 16) / 255) * 1000) / 1000;
}

/** Reads the GroundOverlays of a KML file, one at a time. */
export class GroundOverlayReader {
  private state: OverlayState | null = null;

  get reading(): boolean {
    return this.state !== null;
  }

  open(line: number, depth: number): void {
    this.state ??= { line, depth, hidden: false, box: {} };
  }

  /** The text of an element inside the GroundOverlay being read; false when it is not one of its own. */
  text(name: string, raw: string, parent: string | undefined, grandparent: string | undefined): boolean {
    const state = this.state;
    if (state === null) return false;
    if (parent === 'GroundOverlay') {
      const value = raw.trim();
      if (name === 'name' && value !== '') state.title = value;
      else if (name === 'description' && value !== '') state.description = value;
      else if (name === 'visibility') state.hidden = value === '0' || value === 'false';
      else if (name === 'color') state.color = value;
      return true;
    }
    if (name === 'href' && parent === 'Icon' && grandparent === 'GroundOverlay') {
      state.href = raw.trim();
      return true;
    }
    if (parent === 'LatLonBox' && GROUND_OVERLAY_TEXTS.has(name)) {
      state.box[name as keyof OverlayState['box']] = parseNumber(raw.trim());
      return true;
    }
    if (name === 'coordinates' && parent === 'LatLonQuad') {
      state.quad = raw;
      return true;
    }
    return true; // nothing else inside a GroundOverlay is read (its Style, Region, …)
  }

  /**
   * Ends the GroundOverlay at `depth` (another element's end: undefined). `image` stores the
   * image a KMZ holds (a media placeholder id); without one (a plain KML) none can be stored.
   */
  close(depth: number, image: ((href: string) => string | undefined) | undefined): GroundOverlayResult | undefined {
    const state = this.state;
    if (state === null || state.depth !== depth) return undefined;
    this.state = null;
    const label = state.title === undefined ? 'ground overlay' : `ground overlay ${JSON.stringify(shorten(state.title, 60))}`;
    const skip = (why: string): GroundOverlayResult => ({ skip: `${label}: ${why}; it was skipped`, line: state.line });

    let corners: OverlayCorners | undefined;
    if (state.quad !== undefined) {
      corners = quadCorners(state.quad);
      if (corners === undefined) return skip('its gx:LatLonQuad does not hold 4 positions');
    } else {
      const { north, south, east, west, rotation } = state.box;
      if (![north, south, east, west].every((value) => value !== undefined && Number.isFinite(value))) {
        return skip('it has no LatLonBox with north, south, east and west, nor a gx:LatLonQuad');
      }
      if ((east as number) < (west as number)) return skip('its LatLonBox crosses the 180° meridian, which overlays cannot');
      const turn = rotation !== undefined && Number.isFinite(rotation) ? rotation : 0;
      corners = latLonBoxCorners(north as number, south as number, east as number, west as number, turn);
    }
    if (!onEarth(corners)) return skip('its corners are not all within longitude -180..180 and latitude -90..90');

    const href = state.href;
    if (href === undefined || href === '') return skip('it names no image (Icon href)');
    if (looksLikeAddress(href)) {
      return skip(`its image is at an address (${JSON.stringify(shorten(href, 80))}), which is never fetched; put the image inside a KMZ`);
    }
    if (image === undefined) return skip(`its image ${JSON.stringify(shorten(href, 80))} is a separate file; import the KMZ that holds it`);
    const id = image(href);
    if (id === undefined) return skip(`the KMZ holds no PNG, JPEG or GIF image ${JSON.stringify(shorten(href, 80))}`);

    const properties: Record<string, unknown> = {};
    if (state.title !== undefined) properties.title = state.title;
    if (state.description !== undefined) properties.description = state.description;
    properties.overlay = true;
    properties.image = { id };
    properties.opacity = (state.color === undefined ? undefined : kmlColorOpacity(state.color)) ?? 1;
    return { geometry: overlayPolygon(corners), properties, hidden: state.hidden };
  }
}
