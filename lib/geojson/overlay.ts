// Image overlays: a map item that is an uploaded image placed on the earth by its four corners
// (a scanned old map, a floor plan, a KML GroundOverlay). In the map document it is a Feature
// whose properties have `overlay: true`, `image` (the spec's image object: `id` of an uploaded
// image; `w`, `h` and the colours are filled from the stored image when missing) and `opacity`
// (0..1, 1 when missing); its geometry is a Polygon of one closed ring of the image's corners in
// the order of KML's gx:LatLonQuad: lower-left, lower-right, upper-right, upper-left, and the
// lower-left again (counter-clockwise for an upright image, as RFC 7946 asks of outer rings).
// Pure: imported by the browser's map page too.
import type { Geometry, Polygon, Position } from './geometry.js';

/** The problem with a feature marked as an overlay, in words; thrown as a geojson Problem. */
export type OverlayProblem = string;

/** The four corners: lower-left, lower-right, upper-right, upper-left of the image. */
export type OverlayCorners = [Position, Position, Position, Position];

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Whether a feature's properties mark it as an image overlay. */
export function isOverlay(properties: Readonly<Record<string, unknown>> | null | undefined): boolean {
  return properties?.overlay === true;
}

/** The opacity an overlay is drawn with (1 when it has none). */
export function overlayOpacity(properties: Readonly<Record<string, unknown>>): number {
  const opacity = properties.opacity;
  return typeof opacity === 'number' && opacity >= 0 && opacity <= 1 ? opacity : 1;
}

/** The corners of an overlay's geometry (checked by overlayProblem), or undefined. */
export function overlayCorners(geometry: Geometry): OverlayCorners | undefined {
  if (geometry.type !== 'Polygon' || geometry.coordinates.length !== 1) return undefined;
  const ring = geometry.coordinates[0] as Position[];
  if (ring.length !== 5) return undefined;
  return [ring[0] as Position, ring[1] as Position, ring[2] as Position, ring[3] as Position];
}

/** The overlay's Polygon from its corners (lower-left, lower-right, upper-right, upper-left). */
export function overlayPolygon(corners: OverlayCorners): Polygon {
  const ring = corners.map((position) => [position[0], position[1]] as Position);
  ring.push([corners[0][0], corners[0][1]]);
  return { type: 'Polygon', coordinates: [ring] };
}

/**
 * Checks a feature that has an `overlay` property (already a valid geometry and a copy of its
 * properties); sets `opacity` to 1 when it is missing. Answers the first problem, or null.
 */
export function overlayProblem(geometry: Geometry, properties: Record<string, unknown>): OverlayProblem | null {
  const mark = properties.overlay;
  if (mark === undefined || mark === false) return null;
  if (mark !== true) return `"overlay" must be true or false, not ${JSON.stringify(mark)?.slice(0, 40)}`;
  if (geometry.type !== 'Polygon') {
    return `an overlay's geometry must be a Polygon of its 4 corners, not a ${geometry.type}`;
  }
  if (geometry.coordinates.length !== 1) {
    return `an overlay's Polygon has one ring (its 4 corners), not ${geometry.coordinates.length}`;
  }
  const ring = geometry.coordinates[0] as Position[];
  const first = ring[0] as Position;
  const last = ring[ring.length - 1] as Position;
  const closed = ring.length > 1 && first[0] === last[0] && first[1] === last[1];
  const corners = closed ? ring.length - 1 : ring.length;
  if (corners !== 4) {
    return `an overlay's ring has ${corners} corners; it must have 4 (lower-left, lower-right, upper-right, upper-left of the image) and repeat the first at the end`;
  }
  if (!closed) return "an overlay's ring must end with its first corner again";
  const image = properties.image;
  if (!isRecord(image) || typeof image.id !== 'string' || image.id === '') {
    return 'an overlay needs an "image" with the "id" of an uploaded image (image/upload\'s image_id)';
  }
  const opacity = properties.opacity;
  if (opacity === undefined || opacity === null) {
    properties.opacity = 1;
  } else if (typeof opacity !== 'number' || !(opacity >= 0 && opacity <= 1)) {
    return `an overlay's "opacity" must be a number from 0 to 1, not ${JSON.stringify(opacity)?.slice(0, 40)}`;
  }
  return null;
}
